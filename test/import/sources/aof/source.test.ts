import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readEvents } from '../../../../lib/store/events/log.js';
import { copyFixture, countByStatus, importJson, readTasks, toIds } from '../../../helpers/import.js';
import { cleanRoots, tempRoot } from '../../../helpers/root.js';

// The fixture was written by AOF's own store (test/import/fixtures/aof/README.md).
const T = (n: number) => `TASK-2026-11-26-00${n}`;
const W = (n: number) => `web-app/${T(n)}`;

const aof = suite('import.aof');
aof.after.each(() => cleanRoots());

/** The body of an AOF task file, split as svc splits a task file. */
function aofBody(dir: string, path: string): string {
  const text = readFileSync(join(dir, path), 'utf8');
  return text.slice(text.indexOf('\n---\n') + 5).replace(/^\n/, '');
}

function writeWorkflow(root: string): void {
  mkdirSync(join(root, 'org/workflows'), { recursive: true });
  writeFileSync(
    join(root, 'org/workflows/standard-sdlc.yaml'),
    'workflow:\n  name: standard-sdlc\n  gates:\n    - id: implement\n      role: swe\n    - id: code-review\n      role: reviewer\n',
  );
}

aof(
  'imports every status folder: counts, ids kept or renamed, dependencies and parents rewritten, bodies byte-identical',
  async () => {
    const root = tempRoot();
    const dir = copyFixture('aof');
    const { code, report } = await importJson(root, 'aof', dir);
    assert.is(code, 0, JSON.stringify(report.problems));
    const ids = toIds(report.items);
    for (let n = 1; n <= 8; n++) assert.is(ids[T(n)], T(n), `root task ${n} keeps its id`);
    // AOF numbers each project's ids on its own: the project's three clash with the root's and get new ids.
    for (const n of [1, 2, 3]) {
      assert.is.not(ids[W(n)], T(n));
      assert.is(
        report.items.find((item) => item.sourceId === W(n))!.reason,
        `id clash: ${T(n)} is taken by ${T(n)} of this import, so it gets a new id`,
      );
    }
    const tasks = readTasks(root);
    assert.equal(countByStatus(tasks), { backlog: 3, ready: 2, blocked: 3, done: 1, cancelled: 1, deadletter: 1 });
    const fm = (id: string) => tasks[id]!.text;
    assert.match(fm(T(2)), new RegExp(`dependsOn:\\n  - ${T(1)}\\n`));
    assert.match(fm(ids[W(3)]!), new RegExp(`dependsOn:\\n  - ${ids[W(2)]}\\n`));
    assert.match(fm(ids[W(3)]!), new RegExp(`parentId: ${ids[W(1)]}\\n`));
    assert.match(fm(ids[W(2)]!), new RegExp(`parentId: ${ids[W(1)]}\\n`));
    assert.match(fm(ids[W(3)]!), /project: web-app\n/);
    assert.match(fm(T(1)), /project: ops\n/);
    // Fields svc has carry over; the rest is under metadata.aof.
    assert.match(
      fm(T(2)),
      /priority: high\nrouting:\n  role: ops\n  team: platform\n  tags:\n    - security\n    - tls\n/,
    );
    assert.match(fm(T(2)), /createdAt: '2026-11-26T20:22:00.284Z'\n/);
    assert.match(fm(T(2)), /createdBy: pm\n/);
    assert.match(fm(T(2)), /metadata:\n  ticket: OPS-12\n/);
    assert.match(fm(T(2)), /sla:\n  maxInProgressMs: 3600000\n  onViolation: alert\n/);
    assert.match(fm(T(2)), /  aof:\n    status: ready\n    updatedAt: '2026-11-26T20:22:00.314Z'\n/);
    assert.match(fm(T(4)), /blockReason: waiting for registrar access\n/);
    // Bodies: byte for byte; a task with companion files gets one line naming their copy after it.
    for (const [id, file] of [
      [T(1), `tasks/backlog/${T(1)}.md`],
      [T(4), `tasks/blocked/${T(4)}.md`],
      [T(6), `tasks/done/${T(6)}.md`],
      [ids[W(3)]!, `Projects/web-app/tasks/backlog/${T(3)}.md`],
    ] as const) {
      assert.is(tasks[id]!.body, aofBody(dir, file), file);
    }
    const ready = aofBody(dir, `tasks/ready/${T(2)}.md`);
    assert.ok(tasks[T(2)]!.body.startsWith(ready));
    assert.is(tasks[T(2)]!.body.slice(ready.length).trim(), `Files imported from aof: data/imports/aof-files/${T(2)}/`);
  },
);

aof(
  'review maps to blocked "was in review" without the workflow, to the gate when svc has it; leases dropped, --keep-status',
  async () => {
    const plain = tempRoot();
    const dir = copyFixture('aof');
    const ids = toIds((await importJson(plain, 'aof', dir)).report.items);
    let tasks = readTasks(plain);
    for (const id of [T(5), ids[W(2)]!]) {
      assert.is(tasks[id]!.status, 'blocked');
      assert.match(tasks[id]!.text, /blockReason: was in review\n/);
    }
    assert.match(tasks[ids[W(2)]!]!.text, /  aof:\n    status: review\n[\s\S]*    gate:\n      current: code-review\n/);
    // The leased task comes in ready, without its lease; the lease is kept for the record under metadata.aof.
    assert.is(tasks[T(3)]!.status, 'ready');
    assert.not.match(tasks[T(3)]!.text, /^lease:/m);
    assert.match(tasks[T(3)]!.text, /  aof:\n    status: in-progress\n[\s\S]*    lease:\n      agent: swe-1\n/);
    assert.match(tasks[T(3)]!.text, /routing:\n  role: ops\n  agent: swe-1\n/);

    const gated = tempRoot();
    writeWorkflow(gated);
    const gatedIds = toIds((await importJson(gated, 'aof', copyFixture('aof'))).report.items);
    tasks = readTasks(gated);
    assert.is(tasks[gatedIds[W(2)]!]!.status, 'ready');
    assert.match(
      tasks[gatedIds[W(2)]!]!.text,
      /gate:\n  workflow: standard-sdlc\n  current: code-review\n  history: \[\]\n/,
    );
    assert.not.match(tasks[gatedIds[W(2)]!]!.text, /blockReason/);
    assert.is(tasks[T(5)]!.status, 'blocked', 'a review task without a workflow is blocked');

    const kept = tempRoot();
    writeWorkflow(kept);
    const keptIds = toIds((await importJson(kept, 'aof', copyFixture('aof'), '--keep-status')).report.items);
    tasks = readTasks(kept);
    assert.is(tasks[T(3)]!.status, 'in-progress');
    assert.not.match(tasks[T(3)]!.text, /^lease:/m);
    assert.is(tasks[keptIds[W(2)]!]!.status, 'in-progress');
    assert.equal(countByStatus(tasks), {
      backlog: 3,
      ready: 1,
      'in-progress': 2,
      blocked: 2,
      done: 1,
      cancelled: 1,
      deadletter: 1,
    });
  },
);

aof(
  "companion files are copied (a symbolic link among them is not), events kept once and summarised in each task's task.imported event",
  async () => {
    const root = tempRoot();
    const dir = copyFixture('aof');
    const secret = join(tempRoot(), 'secret.txt');
    writeFileSync(secret, 'not for the import\n');
    symlinkSync(secret, join(dir, 'tasks/ready', T(2), 'inputs/link.txt'));
    const { report } = await importJson(root, 'aof', dir);
    const ids = toIds(report.items);
    const files = join(root, 'data/imports/aof-files');
    assert.is(readFileSync(join(files, T(2), 'inputs/expiry.txt'), 'utf8'), 'notAfter=2026-12-31\n');
    assert.not.ok(existsSync(join(files, T(2), 'inputs/link.txt')), 'the symbolic link is left behind');
    assert.is(readFileSync(join(files, T(3), 'outputs/notes.md'), 'utf8'), '# Progress\n\nBackup taken.\n');
    assert.is(readFileSync(join(files, ids[W(2)]!, 'outputs/summary.md'), 'utf8'), 'Cart endpoint added with tests.\n');
    assert.not.ok(existsSync(join(files, T(1))), 'a task whose folders are empty has no copy');
    const source = readFileSync(join(dir, 'events/2026-11-26.jsonl'), 'utf8');
    assert.is(
      readFileSync(join(root, 'data/imports/aof-events.jsonl'), 'utf8'),
      source,
      'kept byte for byte; the events.jsonl symlink is not read twice',
    );
    const events = (await readEvents(root, { taskId: T(4) })).filter((event) => event.type === 'task.imported');
    assert.is(events.length, 1);
    assert.is(events[0]!.payload.sourceEvents, 2);
    assert.equal(events[0]!.payload.history, [
      '2026-11-26T20:22:00.404Z task.transitioned backlog -> blocked by system',
      '2026-11-26T20:22:00.405Z task.blocked by system (waiting for registrar access)',
    ]);
    assert.is((report as unknown as { events: { added: number } }).events.added, source.trim().split('\n').length);
    const again = await importJson(root, 'aof', dir);
    assert.is((again.report as unknown as { events: { added: number } }).events.added, 0);
    assert.is(readFileSync(join(root, 'data/imports/aof-events.jsonl'), 'utf8'), source);
  },
);

aof.run();
