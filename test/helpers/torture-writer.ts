// One writer of the torture run: `node --import tsx torture-writer.ts <kind> <root> <journal> <generation>`.
// It changes tasks of its own, forever, and appends one JSON line to its journal for each change
// svc acknowledged (after the acknowledgment; a change in flight when it is killed is not in it).
//   cli   `svc task create` / `svc task update --body` through the command line's main()
//   tool  svc_dispatch / svc_task_update over the daemon socket (refused while the daemon is down)
//   hand  task files written outside the tree and renamed in, then moved by rename, a few at a time (git-like)
import { appendFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { main } from '../../lib/cli/main.js';
import { requestDaemon } from '../../lib/daemon/instance/client.js';
import { toPaths } from '../../lib/store/disk/paths.js';
import { createStore } from '../../lib/store/commit/store.js';
import { renderTask } from '../../lib/store/disk/task-file.js';

const [kind = '', root = '', journal = '', generation = '0'] = process.argv.slice(2);
const paths = toPaths(root);
const store = createStore({ root });
const note = (record: Record<string, unknown>) => appendFileSync(journal, `${JSON.stringify(record)}\n`);
const mine: string[] = []; // the tasks this generation created: it changes only those
let n = 0;

async function cli(): Promise<void> {
  const run = async (...argv: string[]) => {
    let stdout = '';
    const code = await main(argv, {
      stdout: (t) => void (stdout += t),
      stderr: () => undefined,
      env: { SVC_HOME: root },
    });
    return { code, stdout };
  };
  if (mine.length < 3 || n % 3 === 0) {
    const title = `cli-${generation}-${n}`;
    const out = await run('task', 'create', title, '--body', `created by ${title}\n`);
    const id = out.code === 0 ? out.stdout.split('\n')[0]!.trim() : '';
    if (id) {
      mine.push(id);
      note({ op: 'create', id, title });
    }
    return;
  }
  const id = mine[n % mine.length]!;
  const shown = await run('task', 'show', id, '--json');
  if (shown.code !== 0) return;
  const body = String((JSON.parse(shown.stdout) as { body?: string }).body ?? '');
  const mark = `mark cli-${generation}-${n}`;
  if ((await run('task', 'update', id, '--body', `${body.trimEnd()}\n${mark}\n`)).code === 0)
    note({ op: 'append', id, mark });
}

async function tool(): Promise<void> {
  const invoke = async (name: string, params: Record<string, unknown>) => {
    const reply = await requestDaemon(
      paths.socket,
      { method: 'POST', path: '/v1/tool/invoke', body: { tool: name, params: { actor: 'torture', ...params } } },
      { timeoutMs: 30_000 },
    );
    if (reply.status !== 200) throw new Error(`HTTP ${reply.status}: ${JSON.stringify(reply.body)}`);
    return (reply.body as { result: Record<string, unknown> }).result;
  };
  if (mine.length < 3 || n % 3 === 0) {
    const title = `tool-${generation}-${n}`;
    const toAgent = n % 6 === 0; // a share of the work is dispatched to the local agent, the rest waits in backlog
    const created = await invoke('svc_dispatch', {
      title,
      brief: `created by ${title}\n`,
      ...(toAgent ? { agent: 'dev' } : {}),
    });
    if (created) {
      if (!toAgent) mine.push(String(created.taskId));
      note({ op: 'create', id: created.taskId, title, dispatched: toAgent });
    }
    return;
  }
  const id = mine[n % mine.length]!;
  const current = await store.get(id).catch(() => null);
  if (!current) return;
  const mark = `mark tool-${generation}-${n}`;
  if (await invoke('svc_task_update', { taskId: id, body: `${current.body.trimEnd()}\n${mark}\n` }))
    note({ op: 'append', id, mark });
}

async function hand(): Promise<void> {
  if (n % 2 === 0) {
    // git-like: several files appear at once, each written elsewhere and renamed in.
    for (let i = 0; i < 3; i++) {
      const id = `TASK-2020-01-01-${generation}${String(n * 3 + i).padStart(5, '0')}`;
      const title = `hand-${generation}-${n}-${i}`;
      const at = new Date().toISOString();
      const staged = `${root}/staging-${process.pid}-${i}.md`;
      writeFileSync(
        staged,
        renderTask(
          {
            schemaVersion: 1,
            id,
            project: 'torture',
            title,
            status: 'backlog',
            priority: 'normal',
            routing: {},
            createdAt: at,
            updatedAt: at,
            lastTransitionAt: at,
            createdBy: 'hand',
            dependsOn: [],
            metadata: {},
          },
          `created by ${title}\n`,
        ),
      );
      renameSync(staged, paths.taskFile('backlog', id));
      mine.push(id);
      note({ op: 'create', id, title });
    }
    return;
  }
  // Each task is moved once, backlog -> blocked: a second hand move could race the daemon's heal
  // of the first, and a human's move racing svc's own commit is not an acknowledged change of svc.
  const movable = readdirSync(paths.statusDir('backlog'))
    .filter((name) => name.startsWith(`TASK-2020-01-01-${generation}`))
    .slice(0, 2);
  for (const name of movable) {
    const id = name.slice(0, -3);
    note({ op: 'move-intent', id, to: 'blocked' });
    renameSync(paths.taskFile('backlog', id), paths.taskFile('blocked', id));
    note({ op: 'move', id, to: 'blocked' });
  }
}

const step = { cli, tool, hand }[kind];
if (!step) throw new Error(`unknown writer kind ${kind}`);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
for (;;) {
  try {
    await step();
  } catch {
    await pause(100); // an error is an unacknowledged change (nothing to note): the daemon may be restarting
  }
  n++;
  await pause(kind === 'hand' ? 150 : 10); // a person moving files is slower than a program
}
