import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readEvents } from '../../../lib/store/events/log.js';
import { createStore } from '../../../lib/store/commit/store.js';
import { TOOLS } from '../../../lib/tools/index.js';
import { OPERATOR_TOOLS } from '../../../lib/tools/operator.js';
import { writeOrg } from '../../helpers/agents.js';
import { svc } from '../../helpers/cli.js';
import { closeDaemons, startTestDaemon } from '../../helpers/daemon.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';

const firstLine = (text: string) => text.split('\n')[0]!;

const edit = suite('cli.task edit');
edit.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

edit(
  'changes title, priority, routing, tags and times on the files when no daemon runs, and says what changed',
  async () => {
    const root = tempRoot();
    writeOrg(root, {
      agents: [
        { id: 'dev', name: 'Dev' },
        { id: 'lead', name: 'Lead' },
      ],
    });
    const id = firstLine((await svc(root, 'task', 'create', 'Old title', '--agent', 'dev')).stdout);
    const out = await svc(
      root,
      'task',
      'edit',
      id,
      '--title',
      'New title',
      '--priority',
      'high',
      '--agent',
      'lead',
      '--tags',
      'ts,db',
      '--due',
      '2d',
      '--not-before',
      '1h',
    );
    assert.is(out.code, 0, out.stderr);
    assert.is(out.stdout, `${id} edited: title, priority, routing, notBefore, dueAt\n`);
    const { task } = await createStore({ root }).get(id);
    assert.equal(
      [task.title, task.priority, task.routing],
      ['New title', 'high', { agent: 'lead', tags: ['ts', 'db'] }],
    );
    assert.ok(Date.parse(task.dueAt!) > Date.now() + 86_400_000 && Date.parse(task.notBefore!) > Date.now());
    const updated = (await readEvents(root, { taskId: id, type: 'task.updated' }))[0]!;
    assert.is(updated.actor, 'operator');
    assert.is(
      (await svc(root, 'task', 'edit', id, '--priority', 'high')).stdout,
      `${id}: nothing changed (it already had those values)\n`,
    );
  },
);

edit(
  'goes through a running daemon, whose index knows the change at once (it reads no file on its own here)',
  async () => {
    const root = tempRoot();
    const daemon = await startTestDaemon(root, {
      schedule: false,
      watch: false,
      rescanIntervalMs: 600_000,
      tools: [...TOOLS, ...OPERATOR_TOOLS],
    });
    const id = firstLine((await svc(root, 'task', 'create', 'Through the socket')).stdout);
    assert.is((await svc(root, 'task', 'edit', id, '--priority', 'critical', '--json')).code, 0);
    assert.is(daemon.index.get(id)?.priority, 'critical');
  },
);

edit(
  "refuses nothing to change, an unknown priority, an unknown agent and a cancelled task's priority, changing nothing",
  async () => {
    const root = tempRoot();
    writeOrg(root, { agents: [{ id: 'dev', name: 'Dev' }] });
    const id = firstLine((await svc(root, 'task', 'create', 'Edit me')).stdout);
    const before = readFileSync(`${root}/tasks/backlog/${id}.md`, 'utf8');
    const nothing = await svc(root, 'task', 'edit', id);
    assert.is(nothing.code, 2);
    assert.match(nothing.stderr, /was given nothing to change\.\nhint: Pass --title, --priority/);
    const priority = await svc(root, 'task', 'edit', id, '--priority', 'hihg');
    assert.is(priority.code, 2);
    assert.match(priority.stderr, /Unknown priority "hihg". Did you mean "high"\?/);
    const agent = await svc(root, 'task', 'edit', id, '--agent', 'deev');
    assert.is(agent.code, 1);
    assert.match(agent.stderr, /unknown agent "deev"/);
    assert.is(readFileSync(`${root}/tasks/backlog/${id}.md`, 'utf8'), before);
    await svc(root, 'task', 'cancel', id);
    const cancelled = await svc(root, 'task', 'edit', id, '--priority', 'high');
    assert.is(cancelled.code, 1);
    assert.match(
      cancelled.stderr,
      new RegExp(`${id} is cancelled, which is terminal: changing its priority means nothing`),
    );
    assert.match(cancelled.stderr, /hint: For the same work again, create a new task/);
  },
);

const dep = suite('cli.task dep');
dep.after.each(cleanRoots);

dep('add makes a task wait for another, remove ends that, and each prints the dependencies', async () => {
  const root = tempRoot();
  const a = firstLine((await svc(root, 'task', 'create', 'A')).stdout);
  const b = firstLine((await svc(root, 'task', 'create', 'B')).stdout);
  assert.is((await svc(root, 'task', 'dep', 'add', b, a)).stdout, `${b} waits for ${a}; depends on: ${a}\n`);
  assert.equal((await createStore({ root }).get(b)).task.dependsOn, [a]);
  const cycle = await svc(root, 'task', 'dep', 'add', a, b);
  assert.is(cycle.code, 1);
  assert.match(cycle.stderr, /makes a cycle/);
  assert.is(
    (await svc(root, 'task', 'dep', 'remove', b, a)).stdout,
    `${b} no longer waits for ${a}; depends on: (nothing)\n`,
  );
  assert.is(
    (await svc(root, 'task', 'dep', 'remove', b, a)).stdout,
    `${b} did not wait for ${a}: nothing changed; depends on: (nothing)\n`,
  );
  assert.equal((await createStore({ root }).get(b)).task.dependsOn, []);
});

dep('an unknown action is a usage error with a "Did you mean"; a done task\'s dependencies are refused', async () => {
  const root = tempRoot();
  const a = firstLine((await svc(root, 'task', 'create', 'A')).stdout);
  const b = firstLine((await svc(root, 'task', 'create', 'B')).stdout);
  const bad = await svc(root, 'task', 'dep', 'ad', b, a);
  assert.is(bad.code, 2);
  assert.match(bad.stderr, /svc task dep takes add or remove, not "ad". Did you mean "add"\?/);
  await svc(root, 'task', 'close', b);
  const done = await svc(root, 'task', 'dep', 'add', b, a);
  assert.is(done.code, 1);
  assert.match(done.stderr, new RegExp(`${b} is done, which is terminal`));
  assert.equal((await createStore({ root }).get(b)).task.dependsOn, []);
});

edit.run();
dep.run();
