// A writer process for the batch crash tests: `node --import tsx batch-writer.ts '<job json>'`.
// Sixteen lanes change tasks at once (one lane per id moves its task between backlog and ready,
// as many lanes create tasks), so their writes go in shared batches; once `after` changes are
// acknowledged, the process SIGKILLs itself the first time a batch reaches the fault point `at`.
// It prints `start`, `writing <id> <step>` when a move is built, `moved <id> <step>` and
// `created <id>` once acknowledged, and `crash <point>` just before it kills itself.
import { createStore } from '../../lib/store/commit/store.js';

/** What the writer does: the tree, the lanes' task ids, and where it crashes. */
export interface BatchWriterJob {
  root: string;
  ids: string[];
  at: string;
  after: number;
}

const job = JSON.parse(process.argv[2] ?? '{}') as BatchWriterJob;
const say = (line: string) => process.stdout.write(`${line}\n`);
let acknowledged = 0;
const store = createStore({
  root: job.root,
  fault: (point) => {
    if (point !== job.at || acknowledged < job.after) return;
    say(`crash ${point}`);
    process.kill(process.pid, 'SIGKILL');
  },
});

async function move(id: string): Promise<never> {
  for (;;) {
    const { after } = await store.commit(
      id,
      (cur) => {
        const step = Number(cur.task.metadata.step ?? 0) + 1;
        say(`writing ${id} ${step}`);
        return {
          task: { ...cur.task, metadata: { ...cur.task.metadata, step } },
          body: `${cur.body.trimEnd()}\nstep ${step}\n`,
          status: step % 2 ? 'ready' : 'backlog',
        };
      },
      'batch-writer',
    );
    acknowledged++;
    say(`moved ${id} ${String(after.task.metadata.step)}`);
  }
}

async function create(lane: number): Promise<never> {
  for (let i = 0; ; i++) {
    const { task } = await store.create({ title: `Batched ${lane}-${i}`, createdBy: 'batch-writer' });
    acknowledged++;
    say(`created ${task.id}`);
  }
}

say('start');
await Promise.all([...job.ids.map(move), ...job.ids.map((_, lane) => create(lane))]);
