import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readEvents } from '../../lib/store/events/log.js';
import { TOOLS } from '../../lib/tools/index.js';
import { OPERATOR_TOOLS } from '../../lib/tools/operator.js';
import { completingAgent, writeOrg } from '../helpers/agents.js';
import { svc } from '../helpers/cli.js';
import { closeDaemons, startTestDaemon } from '../helpers/daemon.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';

/** dev completes its task at once; the poll is an hour apart, so only timers and task changes make ticks and checks. */
function writeDev(root: string): void {
  writeOrg(root, {
    agents: [{ id: 'dev', name: 'Dev', command: completingAgent() }],
    aof: { daemon: { bootWindowMs: 200, pollIntervalMs: 3_600_000 } },
  });
}

const alertsOf = (text: string, id: string) =>
  text.split('\n').filter((line) => line.startsWith(`[AOF] OVERDUE: ${id} `)).length;

const flow = suite('e2e.notBefore and dueAt');
flow.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

flow('a task waiting for notBefore is held, then dispatched by a timer when the time comes, not before', async () => {
  const root = tempRoot();
  writeDev(root);
  await startTestDaemon(root, { tools: [...TOOLS, ...OPERATOR_TOOLS], env: process.env });
  const created = JSON.parse(
    (await svc(root, 'task', 'create', 'At three', '--agent', 'dev', '--not-before', '3s', '--json')).stdout,
  ) as { id: string; notBefore: string };
  assert.is((await svc(root, 'task', 'promote', created.id)).code, 0);
  const plan = await svc(root, 'scheduler', 'run');
  assert.match(plan.stdout, new RegExp(`hold        ${created.id}: not-before: not before ${created.notBefore}`));
  const done = await within(
    15_000,
    async () => (await readEvents(root, { taskId: created.id, type: 'task.completed' })).length > 0,
    'the task done after its notBefore',
  );
  assert.ok(done);
  const [dispatched] = await readEvents(root, { taskId: created.id, type: 'task.dispatched' });
  assert.ok(
    Date.parse(dispatched!.timestamp) >= Date.parse(created.notBefore),
    `dispatched at ${dispatched!.timestamp}, not before ${created.notBefore}`,
  );
});

flow(
  'a passed dueAt raises one OVERDUE alert and one event, on time, and not again after a restart; a done task none',
  async () => {
    const root = tempRoot();
    writeDev(root);
    let stderr = '';
    const options = {
      tools: [...TOOLS, ...OPERATOR_TOOLS],
      env: process.env,
      schedule: true,
      stderr: (text: string) => void (stderr += text),
    };
    let daemon = await startTestDaemon(root, options);
    const late = (await svc(root, 'task', 'create', 'Late \x1b[31mred', '--due', '2s')).stdout.split('\n')[0]!;
    const closed = (await svc(root, 'task', 'create', 'Closed in time', '--due', '2s')).stdout.split('\n')[0]!;
    assert.is((await svc(root, 'task', 'close', closed)).code, 0);
    await within(15_000, () => alertsOf(stderr, late) === 1, 'the OVERDUE alert');
    assert.match(
      stderr,
      new RegExp(
        `\\[AOF\\] OVERDUE: ${late} "Late \\\\x1b\\[31mred"\\n\\[AOF\\] OVERDUE: {3}was due at \\S+ \\(\\d+ s ago\\), status backlog, agent: unassigned`,
      ),
    );
    const events = await readEvents(root, { type: 'task.overdue' });
    assert.equal(
      events.map((e) => [e.taskId, e.payload.status]),
      [[late, 'backlog']],
    );
    assert.match((await svc(root, 'task', 'show', late)).stdout, /\ndueAt: \S+ \(OVERDUE\)\n/);
    await daemon.close();
    daemon = await startTestDaemon(root, options);
    const second = (await svc(root, 'task', 'create', 'Second', '--due', '1s')).stdout.split('\n')[0]!;
    await within(15_000, () => alertsOf(stderr, second) === 1, "the second task's alert, after the restart");
    assert.equal([alertsOf(stderr, late), alertsOf(stderr, closed)], [1, 0]);
    assert.equal(
      (await readEvents(root, { type: 'task.overdue' })).map((e) => e.taskId),
      [late, second],
    );
    await daemon.close();
  },
);

flow.run();
