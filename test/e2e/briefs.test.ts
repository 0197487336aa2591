import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readEvents } from '../../lib/store/events/log.js';
import { createStore } from '../../lib/store/commit/store.js';
import { TOOLS } from '../../lib/tools/index.js';
import { SVC_BIN, writeOrg } from '../helpers/agents.js';
import { call, closeDaemons, startTestDaemon } from '../helpers/daemon.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';

// What a local agent receives (docs/scheduler.md): the brief in a private file named by
// SVC_TASK_BRIEF_FILE, whatever its size, and in SVC_TASK_BRIEF while it fits an environment
// variable; a NUL a failed check's output carried is escaped before it reaches the body.
const FAST = { bootWindowMs: 200, pollIntervalMs: 200, agentStopGraceMs: 300 };

/**
 * argv of an agent that writes what it received to `<SVC_HOME>/received-<session>.json` (the
 * brief file's text and mode, SVC_TASK_BRIEF, stdin), then completes its task.
 */
function receivingAgent(): string[] {
  const script = `
    const fs = require('node:fs');
    const { execFileSync } = require('node:child_process');
    const file = process.env.SVC_TASK_BRIEF_FILE;
    const received = { file, fromFile: fs.readFileSync(file, 'utf8'), mode: fs.statSync(file).mode & 0o777, fromEnv: process.env.SVC_TASK_BRIEF, stdin: fs.readFileSync(0, 'utf8') };
    fs.writeFileSync(process.env.SVC_HOME + '/received-' + process.env.SVC_SESSION_ID + '.json', JSON.stringify(received));
    const params = { taskId: process.env.SVC_TASK_ID, sessionId: process.env.SVC_SESSION_ID, summary: 'done', actor: process.env.SVC_AGENT };
    execFileSync(process.execPath, [${JSON.stringify(SVC_BIN)}, 'tool', 'svc_task_complete', JSON.stringify(params)], { stdio: 'inherit' });
  `;
  return [process.execPath, '-e', script];
}

interface Received {
  file: string;
  fromFile: string;
  mode: number;
  fromEnv: string;
  stdin: string;
}

function receivedBy(root: string): Received[] {
  return readdirSync(root)
    .filter((name) => name.startsWith('received-'))
    .map((name) => JSON.parse(readFileSync(`${root}/${name}`, 'utf8')) as Received);
}

async function dispatch(root: string, brief: string, verify: string[] = []): Promise<string> {
  const { status, body } = await call(root, 'POST', '/v1/tool/invoke', {
    tool: 'svc_dispatch',
    params: { title: 'Briefed work', brief, agent: 'dev', verify },
  });
  assert.is(status, 200, JSON.stringify(body));
  return (body as { result: { taskId: string } }).result.taskId;
}

const briefs = suite('e2e.briefs');
briefs.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

briefs(
  'a 200 KiB brief reaches a local agent whole in a private file; SVC_TASK_BRIEF says where; the file goes with the run',
  async () => {
    const root = tempRoot();
    writeOrg(root, { agents: [{ id: 'dev', name: 'Dev', command: receivingAgent() }], aof: { daemon: FAST } });
    await startTestDaemon(root, { tools: TOOLS, env: process.env });
    const line = 'Step: do the next thing carefully, then note what was done.\n';
    const brief = line.repeat(Math.ceil((200 * 1024) / line.length));
    const id = await dispatch(root, brief);
    await within(20_000, async () => (await createStore({ root }).get(id)).status === 'done', 'done');
    const [received] = receivedBy(root);
    assert.ok(received, 'the agent ran');
    assert.is(received.fromFile.trimEnd(), brief.trimEnd(), 'the whole brief');
    assert.is(received.mode, 0o600);
    assert.match(
      received.fromEnv,
      /^\(the brief has \d+ bytes, more than an environment variable holds here: read it from the file \$SVC_TASK_BRIEF_FILE, /,
    );
    assert.ok(received.stdin.includes(id), 'the prompt on stdin as before');
    await within(10_000, () => !existsSync(received.file), 'the brief file to be removed once the run is gone');
    assert.equal((await readEvents(root, { taskId: id, type: 'dispatch.failed' })).length, 0);
  },
);

briefs(
  "a check's output carrying a NUL is escaped in the body; the next run receives it intact in the file and SVC_TASK_BRIEF",
  async () => {
    const root = tempRoot();
    const once = `${root}/failed-once`;
    const check = [
      process.execPath,
      '-e',
      `const fs = require('node:fs'); if (fs.existsSync(${JSON.stringify(once)})) process.exit(0); fs.writeFileSync(${JSON.stringify(once)}, ''); process.stdout.write('before\\0after\\n'); process.exit(1);`,
    ];
    writeOrg(root, {
      agents: [{ id: 'dev', name: 'Dev', command: receivingAgent() }],
      aof: { daemon: FAST, checks: { nul: { run: check, timeoutMs: 10_000, cwd: root } } },
    });
    await startTestDaemon(root, { tools: TOOLS, env: process.env });
    const id = await dispatch(root, 'Make the check pass.', ['nul']);
    await within(
      30_000,
      async () => (await createStore({ root }).get(id)).status === 'done',
      'done after a failed check and a second run',
    );
    const second = receivedBy(root).find((received) => received.fromFile.includes('## Check failed: nul'));
    assert.ok(second, 'the second run got the body with the failed check');
    assert.not.ok(second.fromFile.includes('\0'));
    assert.match(second.fromFile, /\nbefore\\x00after\n/);
    assert.is(second.fromEnv, second.fromFile);
    assert.equal((await readEvents(root, { taskId: id, type: 'dispatch.failed' })).length, 0, 'no dispatch failed');
  },
);

briefs.run();
