import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { TOOLS } from '../../lib/tools/index.js';
import { OPERATOR_TOOLS } from '../../lib/tools/operator.js';
import { svc } from '../helpers/cli.js';
import { closeDaemons, startTestDaemon, TEST_TOOLS } from '../helpers/daemon.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

const through = suite('cli.task through a running daemon');
through.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

/** A daemon that learns of writes only from its own commits: no watcher, no rescan during the test. */
function startQuietDaemon(root: string, tools = [...TOOLS, ...OPERATOR_TOOLS]) {
  return startTestDaemon(root, { schedule: false, watch: false, rescanIntervalMs: 600_000, tools });
}

const firstLine = (text: string) => text.split('\n')[0]!;

through(
  'create, promote, status, claim, update and close are calls to the daemon: its index knows each change at once',
  async () => {
    const root = tempRoot();
    const daemon = await startQuietDaemon(root);
    const created = await svc(root, 'task', 'create', 'Through', 'the', 'socket', '--priority', 'high');
    assert.is(created.code, 0, created.stderr);
    const id = firstLine(created.stdout);
    assert.match(created.stdout, new RegExp(`created in backlog: ${root}/tasks/backlog/${id}.md`));
    assert.equal([daemon.index.get(id)?.status, daemon.index.get(id)?.title], ['backlog', 'Through the socket']);
    assert.is((await svc(root, 'task', 'promote', id)).stdout, `${id} backlog -> ready\n`);
    assert.is(daemon.index.get(id)?.status, 'ready');
    assert.is(
      (await svc(root, 'task', 'status', id.slice(-3), 'backlog', '--reason', 'later')).stdout,
      `${id} ready -> backlog\n`,
    );
    assert.is(daemon.index.get(id)?.status, 'backlog');
    await svc(root, 'task', 'promote', id);
    const claimed = await svc(root, 'task', 'claim', id);
    assert.match(
      claimed.stdout,
      new RegExp(`^${id} in-progress: leased to operator until .+ \\(session [0-9a-f-]+\\)\n`),
    );
    assert.is(daemon.index.get(id)?.lease?.agent, 'operator');
    assert.is(
      (await svc(root, 'task', 'update', id, '--body', 'New body')).stdout,
      `${id} in-progress (body replaced)\n`,
    );
    assert.match(
      (await svc(root, 'task', 'show', `-${id.slice(-3)}`)).stdout,
      /status: in-progress\n[\s\S]*\nNew body\n$/,
    );
    assert.is((await svc(root, 'task', 'close', id)).stdout, `${id} in-progress -> done\n`);
    assert.is(daemon.index.get(id)?.status, 'done');
  },
);

through('a foreign lease refuses the command with the command line that would work', async () => {
  const root = tempRoot();
  await startQuietDaemon(root);
  const id = firstLine((await svc(root, 'task', 'create', 'Leased')).stdout);
  await svc(root, 'task', 'promote', id);
  const claimed = await svc(root, 'task', 'claim', id, '--agent', 'alice');
  const session = /session ([0-9a-f-]+)\)/.exec(claimed.stdout)![1]!;
  const refused = await svc(root, 'task', 'close', id, '--reason', "it's done");
  assert.is(refused.code, 1);
  assert.match(refused.stderr, /alice/);
  assert.ok(
    refused.stderr.includes(`svc task close ${id} --reason 'it'\\''s done' --session ${session}`),
    refused.stderr,
  );
  assert.match((await svc(root, 'task', 'status', id, 'ready')).stderr, /Task has active lease/);
  assert.is((await svc(root, 'task', 'close', id, '--session', session)).code, 0);
});

through('errors of the daemon keep their code, message and hint', async () => {
  const root = tempRoot();
  await startQuietDaemon(root);
  const missing = await svc(root, 'task', 'show', 'TASK-1999-01-01-001', '--json');
  assert.is(missing.code, 1);
  assert.is(JSON.parse(missing.stderr).error.code, 'not_found');
  const id = firstLine((await svc(root, 'task', 'create', 'Done twice')).stdout);
  await svc(root, 'task', 'close', id);
  const again = await svc(root, 'task', 'status', id, 'ready');
  assert.is(again.code, 1);
  assert.match(again.stderr, /cannot move from done to ready/);
});

through('svc tool goes through the daemon too', async () => {
  const root = tempRoot();
  const daemon = await startQuietDaemon(root);
  const out = await svc(root, 'tool', 'svc_dispatch', '{"title":"From a tool","brief":"Do it.","agent":"dev"}');
  assert.is(out.code, 0, out.stderr);
  const { taskId } = JSON.parse(out.stdout) as { taskId: string };
  assert.ok(daemon.index.get(taskId), 'the daemon committed it');
});

through("a daemon that does not know the command line's calls leaves them to the command", async () => {
  const root = tempRoot();
  const daemon = await startQuietDaemon(root, TEST_TOOLS);
  const created = await svc(root, 'task', 'create', 'Written here');
  assert.is(created.code, 0, created.stderr);
  const id = firstLine(created.stdout);
  assert.is(daemon.index.get(id), undefined, 'written by the command, not the daemon');
  assert.is((await svc(root, 'task', 'promote', id)).code, 0);
});

through.run();
