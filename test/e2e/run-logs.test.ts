import { spawn } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createStore } from '../../lib/store/commit/store.js';
import { SVC_BIN, writeOrg } from '../helpers/agents.js';
import { closeDaemons, healthy, runSvc, startChild } from '../helpers/daemon.js';
import { startFakeGateway } from '../helpers/fake-gateway.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';

// The log of each run of a local agent (docs/approvals-and-logs.md), through a real daemon and the real command line.
const FAST = { bootWindowMs: 200, pollIntervalMs: 200, retryBackoffMs: [100] };

/** argv of an agent that runs `body` (JavaScript, with `run` the number of this run from 1 and `complete()` at hand). */
function agent(body: string): string[] {
  const script = `
    const fs = require('node:fs');
    const { execFileSync } = require('node:child_process');
    const counter = process.env.SVC_HOME + '/runs-' + process.env.SVC_TASK_ID;
    const run = (fs.existsSync(counter) ? Number(fs.readFileSync(counter, 'utf8')) : 0) + 1;
    fs.writeFileSync(counter, String(run));
    const waitFor = (file) => { while (!fs.existsSync(process.env.SVC_HOME + '/' + file)) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20); };
    const complete = () => execFileSync(process.execPath, [${JSON.stringify(SVC_BIN)}, 'tool', 'svc_task_complete', JSON.stringify({ taskId: process.env.SVC_TASK_ID, sessionId: process.env.SVC_SESSION_ID, actor: process.env.SVC_AGENT })], { stdio: 'ignore' });
    ${body}
  `;
  return [process.execPath, '-e', script];
}

async function start(body: string, daemon: Record<string, unknown> = {}): Promise<{ root: string; env: Record<string, string>; id: string }> {
  const root = tempRoot();
  writeOrg(root, { agents: [{ id: 'dev', name: 'Dev', command: agent(body) }], aof: { daemon: { ...FAST, ...daemon } } });
  startChild(root);
  await healthy(root);
  const env = { SVC_HOME: root, HOME: root };
  const created = await runSvc(env, 'task', 'create', 'Logged work', '--agent', 'dev', '--json');
  assert.is(created.code, 0, created.stderr);
  return { root, env, id: (JSON.parse(created.stdout) as { id: string }).id };
}

async function doneOf(root: string, id: string): Promise<void> {
  await within(20_000, async () => (await createStore({ root }).get(id)).status === 'done', `${id} to be done`);
}

const logs = suite('e2e.run logs');
logs.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

logs('an agent\'s stdout and stderr go to its run log under a header; svc task logs prints it by sequence id and svc task show names it', async () => {
  const { root, env, id } = await start(`console.log('to stdout \\u001b[2J'); console.error('to stderr'); complete();`);
  assert.is((await runSvc(env, 'task', 'promote', id)).code, 0);
  await doneOf(root, id);
  const shown = await within(15_000, async () => {
    const out = (await runSvc(env, 'task', 'logs', `-${id.slice(-3)}`)).stdout;
    return /svc run ended: exit code 0/.test(out) ? out : null;
  }, 'the end line');
  const lines = shown.trimEnd().split('\n');
  assert.match(lines[0]!, new RegExp(`^=== svc run: task ${id}, agent dev, session (\\S+), started \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z ===$`));
  assert.ok(lines.includes('to stdout \\x1b[2J'), 'stdout, its control characters escaped');
  assert.ok(lines.includes('to stderr'), 'stderr');
  assert.match(lines.at(-1)!, /^=== svc run ended: exit code 0 at \S+ ===$/);
  const file = JSON.parse((await runSvc(env, 'task', 'logs', id, '--json')).stdout) as { path: string; session: string; kind: string; name: string; n: number }[];
  assert.equal(file.map((f) => [f.n, f.kind, f.name]), [[1, 'agent', 'dev']]);
  assert.ok(file[0]!.path.startsWith(`${root}/data/logs/runs/${id}/${file[0]!.session}-1.log`));
  const show = await runSvc(env, 'task', 'show', id);
  assert.match(show.stdout, new RegExp(`^last run log: ${file[0]!.path} \\(svc task logs ${id}\\)$`, 'm'));
  assert.is((JSON.parse((await runSvc(env, 'task', 'show', id, '--json')).stdout) as { lastRunLog: string }).lastRunLog, file[0]!.path);
  assert.match(readFileSync(`${root}/data/logs/agents.log`, 'utf8'), new RegExp(`${id} dev session \\S+: ended \\(exit code 0\\)`));
});

logs('--run n prints the n-th run; a run past the last is a clear error', async () => {
  const { root, env, id } = await start(`console.log('attempt ' + run); if (run === 1) process.exit(1); complete();`);
  assert.is((await runSvc(env, 'task', 'promote', id)).code, 0);
  await doneOf(root, id);
  await within(15_000, async () => (JSON.parse((await runSvc(env, 'task', 'logs', id, '--json')).stdout) as { ended: string | null }[]).filter((r) => r.ended).length === 2, 'two ended runs');
  const one = await runSvc(env, 'task', 'logs', id, '--run', '1');
  assert.match(one.stdout, /^attempt 1$/m);
  assert.match(one.stdout, /svc run ended: exit code 1/);
  assert.not.match(one.stdout, /attempt 2/);
  const two = await runSvc(env, 'task', 'logs', id, '--run', '2');
  assert.match(two.stdout, /^attempt 2$/m);
  assert.not.match(two.stdout, /attempt 1/);
  const three = await runSvc(env, 'task', 'logs', id, '--run', '3');
  assert.is(three.code, 1);
  assert.match(three.stderr, new RegExp(`${id} has 2 run logs; there is no run 3`));
  const zero = await runSvc(env, 'task', 'logs', id, '--run', '0');
  assert.is(zero.code, 2);
});

logs('the cap keeps the tail: header, a note that earlier output was dropped, the last lines and the end line', async () => {
  const cap = 4096;
  const { root, env, id } = await start(`for (let i = 1; i <= 5000; i++) console.log('line ' + i + ' of the output'); console.log('LAST LINE'); complete();`, { runLogMaxBytes: cap });
  assert.is((await runSvc(env, 'task', 'promote', id)).code, 0);
  await doneOf(root, id);
  const [entry] = await within(15_000, async () => {
    const rows = JSON.parse((await runSvc(env, 'task', 'logs', id, '--json')).stdout) as { path: string; ended: string | null; text: string }[];
    return rows[0]?.ended ? rows : null;
  }, 'the ended run');
  assert.ok(statSync(entry!.path).size <= cap, `${statSync(entry!.path).size} bytes`);
  const lines = entry!.text.trimEnd().split('\n');
  assert.match(lines[0]!, new RegExp(`^=== svc run: task ${id}, agent dev, `));
  assert.match(lines[1]!, /earlier output dropped to keep this log within 4096 bytes/);
  assert.ok(lines.includes('line 5000 of the output') && lines.includes('LAST LINE'));
  assert.not.ok(lines.includes('line 1 of the output'));
  assert.match(lines.at(-1)!, /svc run ended: exit code 0/);
});

logs('--follow shows a running agent\'s lines as it writes them and ends when the run ends', async () => {
  const { root, env, id } = await start(`console.log('tick one'); waitFor('go-1'); console.log('tick two'); waitFor('go-2'); complete();`);
  const backlog = await runSvc(env, 'task', 'logs', id, '--follow');
  assert.is(backlog.stdout, `(${id} has no run logs, and no run is under way)\n`, 'a backlog task has no run to wait for');
  assert.is((await runSvc(env, 'task', 'promote', id)).code, 0); // ready: the follow waits for its first run
  const follower = spawn(process.execPath, [SVC_BIN, 'task', 'logs', id, '--follow'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  follower.stdout.on('data', (chunk: Buffer) => void (out += chunk.toString()));
  follower.stderr.on('data', (chunk: Buffer) => void (out += chunk.toString()));
  const exited = new Promise<{ code: number | null }>((resolve) => follower.on('close', (code) => resolve({ code })));
  try {
    await within(20_000, () => out.includes('tick one\n'), 'the first line while the agent runs');
    assert.not.ok(out.includes('tick two'));
    writeFileSync(`${root}/go-1`, '');
    await within(15_000, () => out.includes('tick two\n'), 'the second line while the agent runs');
    assert.not.match(out, /svc run ended/);
    writeFileSync(`${root}/go-2`, '');
    const { code } = await within(20_000, () => exited, 'the follow to end').catch((err: Error) => Promise.reject(new Error(`${err.message}; it printed:\n${out}`)));
    assert.is(code, 0, out);
    assert.match(out, /=== svc run ended: exit code 0 at \S+ ===\n$/);
  } finally {
    follower.kill('SIGKILL');
  }
});

logs('a gateway agent\'s run names its session in svc task logs, and --follow says its output is in the gateway and ends', async () => {
  const gateway = await startFakeGateway();
  const root = tempRoot();
  writeOrg(root, { agents: [{ id: 'gw', name: 'Gateway agent' }], aof: { daemon: { ...FAST, gatewayUrl: gateway.url } } });
  const env = { SVC_HOME: root, HOME: root };
  try {
    startChild(root);
    await healthy(root);
    const created = await runSvc(env, 'task', 'create', 'Gateway work', '--agent', 'gw', '--json');
    const id = (JSON.parse(created.stdout) as { id: string }).id;
    assert.is((await runSvc(env, 'task', 'promote', id)).code, 0);
    await within(15_000, async () => (await createStore({ root }).get(id)).status === 'in-progress', `${id} in progress`);
    const session = (await createStore({ root }).get(id)).task.lease!.sessionId;
    const followed = await within(15_000, () => runSvc(env, 'task', 'logs', id, '--follow'), 'the follow to end');
    assert.is(followed.code, 0, followed.stderr);
    assert.match(followed.stdout, new RegExp(`agent gw through the gateway \\(standalone adapter\\), session ${session}, .*not in a run log here`));
    const listed = await runSvc(env, 'task', 'logs', id);
    assert.match(listed.stdout, new RegExp(`^=== svc run: task ${id}, agent gw through the gateway \\(standalone adapter\\), session ${session}, started `));
    const json = JSON.parse((await runSvc(env, 'task', 'logs', id, '--json')).stdout) as Array<{ kind: string; session: string; path: null }>;
    assert.equal(json.map((run) => [run.kind, run.session, run.path]), [['standalone', session, null]]);
  } finally {
    await gateway.close();
  }
});

logs('--follow of a ready task with no daemon running says no daemon dispatches it and ends; of a claimed task, that it was claimed', async () => {
  const root = tempRoot();
  writeOrg(root, { agents: [{ id: 'dev', name: 'Dev', command: agent('complete();') }] });
  const env = { SVC_HOME: root, HOME: root };
  const created = await runSvc(env, 'task', 'create', 'Waits for a daemon', '--agent', 'dev', '--json');
  const id = (JSON.parse(created.stdout) as { id: string }).id;
  assert.is((await runSvc(env, 'task', 'promote', id)).code, 0);
  const followed = await within(15_000, () => runSvc(env, 'task', 'logs', id, '--follow'), 'the follow to end');
  assert.is(followed.code, 0, followed.stderr);
  assert.is(followed.stdout, `(${id} has no run log, and no daemon runs on ${root} to dispatch it: start one with \`svc daemon start\`, then follow again)\n`);
  const claimed = await runSvc(env, 'task', 'claim', id);
  const session = /\(session (\S+)\)/.exec(claimed.stdout)![1];
  const ofClaim = await within(15_000, () => runSvc(env, 'task', 'logs', id, '--follow'), 'the follow to end');
  assert.is(ofClaim.stdout, `(${id} is claimed by operator (session ${session}), not dispatched: no run writes a log for it)\n`);
});

logs.run();
