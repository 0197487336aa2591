import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { STATUSES } from '../../../lib/core/status.js';
import { readEvents } from '../../../lib/store/events/log.js';
import { createStore } from '../../../lib/store/commit/store.js';
import { killWorkers, startWorker } from '../../helpers/children.js';
import { svc } from '../../helpers/cli.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';

const humans = suite('store.humans');
humans.after.each(async () => {
  await killWorkers();
  cleanRoots();
});

humans(
  'a file moved with mv is read as its new status, and doctor --fix heals it with one filesystem event',
  async () => {
    const root = tempRoot();
    const store = createStore({ root });
    const { task, path } = await store.create({ title: 'Moved by hand', createdBy: 'test', body: 'Keep this body.\n' });
    execFileSync('mv', [path, join(root, 'tasks/ready', `${task.id}.md`)]);
    const got = await store.get(task.id);
    assert.is(got.status, 'ready');
    assert.is(got.task.status, 'backlog', 'the frontmatter lags until healed');
    assert.equal(
      (await store.list()).tasks.map((stored) => [stored.task.id, stored.status]),
      [[task.id, 'ready']],
    );
    const fix = await svc(root, 'doctor', '--fix');
    assert.is(fix.code, 0, fix.stdout);
    assert.match(fix.stdout, `fixed: heal ${task.id}: frontmatter says backlog, directory says ready`);
    const healed = await store.get(task.id);
    assert.is(healed.task.status, 'ready');
    assert.is(healed.body, 'Keep this body.\n');
    const moves = await readEvents(root, { type: 'task.transitioned' });
    assert.equal(
      moves.map((event) => [event.taskId, event.actor, event.payload.from, event.payload.to]),
      [[task.id, 'filesystem', 'backlog', 'ready']],
    );
    assert.is((await svc(root, 'doctor')).stdout, 'ok: no problems\n');
  },
);

humans('an id with ../ as an argument is refused before any path is built', async () => {
  const root = tempRoot();
  const store = createStore({ root });
  await store.create({ title: 'Neighbour', createdBy: 'test' });
  for (const arg of ['../../etc/passwd', '../backlog/TASK-2026-11-21-001', 'TASK-2026-11-21-001/../x']) {
    const err = await store.get(arg).then(
      () => null,
      (e: { code: string; message: string }) => e,
    );
    assert.is(err?.code, 'validation_error', arg);
    assert.match(err!.message, "no '/', no '..'");
  }
});

humans('a file saved with a byte-order mark (as some editors do) is read as the task it is', async () => {
  const root = tempRoot();
  const store = createStore({ root });
  const { task, path } = await store.create({ title: 'Edited on Windows', createdBy: 'test', body: 'Body\n' });
  writeFileSync(path, `\uFEFF${readFileSync(path, 'utf8')}`);
  assert.is((await store.get(task.id)).task.title, 'Edited on Windows');
  assert.equal((await store.list()).invalid, []);
  assert.is((await svc(root, 'doctor')).stdout.trim(), 'ok: no problems');
  const promoted = await svc(root, 'task', 'promote', task.id);
  assert.is(promoted.code, 0, promoted.stderr);
  assert.not.match(
    readFileSync(join(root, 'tasks/ready', `${task.id}.md`), 'utf8'),
    /^\uFEFF/,
    'svc writes files without one',
  );
});

/** Bad files a human (or an attacker with write access) can leave; each must be refused, named, left alone. */
const BAD: { name: string; content: (good: string, root: string) => string; code: string; says: string }[] = [
  {
    name: 'malformed YAML',
    content: () => '---\ntitle: [unclosed\nstatus: ready\n---\nBody\n',
    code: 'validation_error',
    says: 'malformed YAML frontmatter',
  },
  {
    name: 'a missing required field',
    content: (good) => good.replace(/^title: .*\n/m, ''),
    code: 'validation_error',
    says: 'title is missing',
  },
  {
    name: 'a frontmatter id with ../',
    content: (good) => good.replace(/^id: .*$/m, 'id: ../../etc/passwd'),
    code: 'validation_error',
    says: 'id:',
  },
  {
    name: 'a 2 MB body',
    content: (good) => good + 'x'.repeat(2 * 1024 * 1024),
    code: 'too_large',
    says: 'the limit is 1048576',
  },
  { name: 'a YAML alias bomb', content: () => aliasBomb(), code: 'validation_error', says: 'maxAliases' },
  {
    name: 'a __proto__ key (which JavaScript would drop silently)',
    content: (good) => good.replace('metadata: {}', 'metadata:\n  __proto__:\n    polluted: true'),
    code: 'validation_error',
    says: 'metadata.__proto__: the key "__proto__" is refused',
  },
  {
    name: 'a ---js block',
    content: (_, root) =>
      `---js\n{ title: require('fs').writeFileSync(${JSON.stringify(join(root, 'pwned'))}, 'x') }\n---\nBody\n`,
    code: 'validation_error',
    says: 'frontmatter language "js" is not allowed',
  },
];

for (const bad of BAD) {
  humans(`${bad.name} gives an error naming the file and changes nothing`, async () => {
    const root = tempRoot();
    const store = createStore({ root });
    const good = await store.create({ title: 'Good neighbour', createdBy: 'test' });
    const id = 'TASK-2026-11-21-900';
    const file = join(root, 'tasks/ready', `${id}.md`);
    writeFileSync(file, bad.content(readFileSync(good.path, 'utf8').replace(good.task.id, id), root));
    const before = snapshot(root);
    const err = await store.get(id).then(
      () => null,
      (e: { code: string; message: string }) => e,
    );
    assert.is(err?.code, bad.code, err?.message);
    assert.match(err!.message, file);
    assert.match(err!.message, bad.says);
    const { tasks, invalid } = await store.list();
    assert.equal(
      tasks.map((stored) => stored.task.id),
      [good.task.id],
    );
    assert.equal(
      invalid.map((entry) => [entry.path, entry.status]),
      [[file, 'ready']],
    );
    const plan = await svc(root, 'doctor');
    assert.is(plan.code, 1);
    assert.match(plan.stdout, `invalid tasks/ready/${id}.md: `);
    const fix = await svc(root, 'doctor', '--fix');
    assert.is(fix.code, 1, 'invalid files remain');
    assert.match(fix.stdout, /hint: fix the listed files/);
    assert.equal(snapshot(root), before, 'no file was moved, rewritten or created');
    assert.not.ok(existsSync(join(root, 'pwned')), 'the ---js block was never evaluated');
  });
}

humans('status directories keep .gitkeep, and doctor --fix puts back a deleted one', async () => {
  const root = tempRoot();
  const store = createStore({ root });
  const { task } = await store.create({ title: 'Only one', createdBy: 'test' });
  await store.commit(task.id, (cur) => ({ task: cur.task, body: cur.body, status: 'ready' }), 'test');
  assert.equal(readdirSync(join(root, 'tasks/backlog')), ['.gitkeep'], 'the emptied directory keeps its .gitkeep');
  for (const status of STATUSES) assert.ok(existsSync(join(root, 'tasks', status, '.gitkeep')), status);
  rmSync(join(root, 'tasks/blocked/.gitkeep'));
  rmSync(join(root, 'tasks/cancelled'), { recursive: true });
  const plan = await svc(root, 'doctor');
  assert.is(
    plan.stdout,
    'not created yet (svc creates them when first needed; `svc doctor --fix` creates them now): tasks/blocked/.gitkeep, tasks/cancelled\nok: no problems\n',
  );
  assert.is(plan.code, 0, 'a directory svc creates when needed is no problem');
  assert.is((await svc(root, 'doctor', '--fix')).code, 0);
  for (const status of STATUSES) assert.ok(existsSync(join(root, 'tasks', status, '.gitkeep')), status);
});

humans('doctor --fix removes the temporary file of a killed writer, taking over its lock at once', async () => {
  const root = tempRoot();
  const store = createStore({ root });
  const { task, path } = await store.create({ title: 'Half written', createdBy: 'test' });
  const original = readFileSync(path, 'utf8');
  const writer = startWorker({ op: 'hold', root, id: task.id, status: 'backlog' });
  await writer.waitFor(/^holding$/);
  await writer.kill();
  const temp = `${path}.${writer.child.pid}.partial`;
  assert.ok(existsSync(temp));
  assert.equal((await store.list()).invalid, [], 'a temporary is never read as a task');
  const plan = await svc(root, 'doctor');
  assert.is(plan.code, 1);
  assert.match(plan.stdout, `remove temporary file tasks/backlog/${task.id}.md.${writer.child.pid}.partial`);
  const started = Date.now();
  const fix = await svc(root, 'doctor', '--fix');
  assert.is(fix.code, 0, fix.stdout);
  assert.ok(Date.now() - started < 5000, "the dead owner's lock is taken over without waiting for staleness");
  assert.not.ok(existsSync(temp));
  assert.is(readFileSync(path, 'utf8'), original);
  assert.is((await svc(root, 'doctor')).stdout, 'ok: no problems\n');
});

// --- internal ---

function aliasBomb(): string {
  const rows = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (const [prev, name] of [
    ['a', 'b'],
    ['b', 'c'],
    ['c', 'd'],
    ['d', 'e'],
    ['e', 'f'],
    ['f', 'g'],
    ['g', 'h'],
    ['h', 'i'],
  ]) {
    rows.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(',')}]`);
  }
  return `---\n${rows.join('\n')}\n---\nBody\n`;
}

function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.name === '.locks' || entry.name === '.seq' || entry.name === 'events') continue;
      if (entry.isDirectory()) walk(path);
      else out[path] = readFileSync(path, 'utf8');
    }
  };
  walk(root);
  return out;
}

humans.run();
