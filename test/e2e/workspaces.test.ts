import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { toRootId } from '../../lib/core/branch-template.js';
import { readEvents } from '../../lib/store/events/log.js';
import { createStore } from '../../lib/store/commit/store.js';
import { TOOLS } from '../../lib/tools/index.js';
import { APPROVAL_TOOLS } from '../../lib/tools/approval.js';
import { OPERATOR_TOOLS } from '../../lib/tools/operator.js';
import { completingAgent, SVC_BIN, writeOrg } from '../helpers/agents.js';
import { call, closeDaemons, runSvc, startTestDaemon } from '../helpers/daemon.js';
import { branches, git, makeRepo, scriptAgent } from '../helpers/git.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';

// Workspaces (docs/workspaces.md): a git worktree per task, kept across the gates of its
// workflow, removed at done when clean, kept when dirty, never removed when svc did not make it.
const FAST = { bootWindowMs: 200, pollIntervalMs: 200, agentStopGraceMs: 300, retryBackoffMs: [200] };

async function invoke(root: string, tool: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
  const { status, body } = await call(root, 'POST', '/v1/tool/invoke', { tool, params });
  assert.is(status, 200, JSON.stringify(body));
  return (body as { result: Record<string, unknown> }).result;
}

/** Creates a ready task through the daemon (`svc task create`, then ready). */
async function createReady(root: string, params: Record<string, unknown>): Promise<string> {
  const created = await invoke(root, 'operator_task_create', params);
  const id = String(created.id);
  await invoke(root, 'operator_task_status', { taskId: id, status: 'ready' });
  return id;
}

async function statusOf(root: string, id: string): Promise<string> {
  return (await createStore({ root }).get(id)).status;
}

const ws = suite('e2e.workspaces');
ws.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

ws('implement -> review with a check -> approval: one worktree across the gates, a failed check sends the task back with its output, the fix passes, the task waits for approval, approved it is done, the worktree is removed and the branch keeps the commits', async () => {
  const root = tempRoot();
  const repo = makeRepo(`${root}/repo`);
  const implementer = scriptAgent(SVC_BIN, `
    fs.appendFileSync(env.SVC_HOME + '/cwd-impl', process.cwd() + '\\n');
    fs.writeFileSync('feature.txt', 'the feature\\n');
    sh('git', 'add', 'feature.txt'); sh('git', 'commit', '-q', '-m', 'implement the feature');
    complete({ outcome: 'complete', summary: 'implemented' });`);
  const reviewer = scriptAgent(SVC_BIN, `
    fs.appendFileSync(env.SVC_HOME + '/cwd-rev', process.cwd() + ' ' + env.SVC_WORKSPACE + ' ' + env.SVC_BRANCH + ' ' + sh('git', 'log', '--format=%s', '-1').trim() + '\\n');
    if (env.SVC_TASK_BRIEF.includes('## Check failed: test')) {
      fs.writeFileSync('fixed.txt', 'fixed\\n');
      sh('git', 'add', 'fixed.txt'); sh('git', 'commit', '-q', '-m', 'fix what the check found');
    }
    complete({ outcome: 'complete', summary: 'reviewed' });`);
  const check = [process.execPath, '-e', "if (!require('fs').existsSync('fixed.txt')) { console.log('FAIL: fixed.txt is missing'); process.exit(1) } console.log('all good')"];
  writeOrg(root, {
    agents: [{ id: 'impl', name: 'Impl', command: implementer }, { id: 'rev', name: 'Rev', command: reviewer }],
    roles: { implementer: { agents: ['impl'] }, reviewer: { agents: ['rev'] } },
    aof: { daemon: FAST, workspaces: { app: { repo, base: 'main', root: `${root}/wt` } }, checks: { test: { run: check, timeoutMs: 20_000 } } },
  });
  mkdirSync(`${root}/org/workflows`, { recursive: true });
  writeFileSync(`${root}/org/workflows/ship.yaml`, 'workflow:\n  name: ship\n  gates:\n    - id: implement\n      role: implementer\n    - id: review\n      role: reviewer\n      verify: [test]\n    - id: approve\n      approval: true\n');
  await startTestDaemon(root, { tools: [...TOOLS, ...APPROVAL_TOOLS, ...OPERATOR_TOOLS], env: process.env });
  const id = await createReady(root, { title: 'Add the feature', workflow: 'ship', workspace: 'app' });
  await within(30_000, async () => (await statusOf(root, id)) === 'blocked', `${id} to wait for approval`);
  const path = `${root}/wt/${id}`;
  const awaiting = await runSvc({ SVC_HOME: root, HOME: root }, 'task', 'list', '--awaiting', '--json');
  assert.equal((JSON.parse(awaiting.stdout) as { id: string; awaiting: { gate: string } }[]).map((row) => [row.id, row.awaiting.gate]), [[id, 'approve']]);
  assert.ok(existsSync(`${path}/fixed.txt`), 'the worktree is kept while the task waits');
  const approved = await runSvc({ SVC_HOME: root, HOME: root }, 'task', 'approve', id, '--note', 'ship it');
  assert.is(approved.code, 0, approved.stderr);
  await within(15_000, async () => (await statusOf(root, id)) === 'done', `${id} to be done`);
  assert.equal(readFileSync(`${root}/cwd-impl`, 'utf8'), `${path}\n`, 'the implementer ran in the worktree');
  const reviews = readFileSync(`${root}/cwd-rev`, 'utf8').trim().split('\n');
  assert.equal(reviews, [`${path} ${path} svc/${toRootId(root)}/${id} implement the feature`, `${path} ${path} svc/${toRootId(root)}/${id} implement the feature`], 'the reviewer ran twice in the same worktree and saw the commit');
  const task = (await createStore({ root }).get(id));
  assert.match(task.body, /## Check failed: test \(/);
  assert.match(task.body, /FAIL: fixed\.txt is missing/);
  assert.equal(task.task.workspace, { name: 'app', path, branch: `svc/${toRootId(root)}/${id}`, base: 'main', host: task.task.workspace!.host });
  assert.is((task.task.metadata.lastCheck as { exitCode: number }).exitCode, 0);
  const events = await within(5000, async () => { const all = await readEvents(root, { taskId: id }); return all.some((e) => e.type === 'task.completed') && all; }, 'task.completed'); // appended just after the commit
  assert.equal(events.filter((e) => e.type === 'task.check_failed').map((e) => [e.payload.name, e.payload.exitCode, e.payload.to]), [['test', 1, 'ready']]);
  assert.is(events.filter((e) => e.type === 'task.verified').length, 1);
  assert.is(events.filter((e) => e.type === 'task.completed').length, 1);
  const failedLog = String(events.find((e) => e.type === 'task.check_failed')!.payload.log);
  assert.ok(failedLog.startsWith(`${root}/data/logs/runs/${id}/check-test-1.log`), failedLog);
  assert.match(readFileSync(failedLog, 'utf8'), new RegExp(`^=== svc run: task ${id}, check test, session \\S+, started \\S+ ===\\nFAIL: fixed.txt is missing\\n`));
  const show = await runSvc({ SVC_HOME: root, HOME: root }, 'task', 'show', id);
  assert.match(show.stdout, new RegExp(`^workspace: app at ${path} \\(branch svc/${toRootId(root)}/${id}, from main, host \\S+\\)(: removed by svc at \\S+ \\(task done\\))?$`, 'm')); // removed at done, perhaps already
  await within(15_000, () => !existsSync(path), 'the worktree to be removed');
  assert.ok(branches(repo).includes(`svc/${toRootId(root)}/${id}`), 'the branch is kept');
  assert.equal(git(repo, 'log', '--format=%s', `main..svc/${toRootId(root)}/${id}`).split('\n'), ['fix what the check found', 'implement the feature']);
});

ws('two tasks of one workspace running at once get two worktrees on two branches, and neither sees the other\'s files', async () => {
  const root = tempRoot();
  const repo = makeRepo(`${root}/repo`);
  const agent = scriptAgent(SVC_BIN, `
    fs.writeFileSync(env.SVC_TASK_ID + '.txt', 'mine\\n');
    fs.writeFileSync(env.SVC_HOME + '/started-' + env.SVC_TASK_ID, '');
    const deadline = Date.now() + 20000;
    while (fs.readdirSync(env.SVC_HOME).filter((f) => f.startsWith('started-')).length < 2 && Date.now() < deadline) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    fs.writeFileSync(env.SVC_HOME + '/seen-' + env.SVC_TASK_ID, JSON.stringify({ cwd: process.cwd(), branch: env.SVC_BRANCH, files: fs.readdirSync('.').filter((f) => f !== '.git').sort() }));
    sh('git', 'add', '-A'); sh('git', 'commit', '-q', '-m', 'work of ' + env.SVC_TASK_ID);
    complete({ summary: 'done' });`);
  writeOrg(root, { agents: [{ id: 'dev', name: 'Dev', command: agent, maxConcurrent: 2, workspace: 'app' }], aof: { daemon: FAST, workspaces: { app: { repo } } } });
  await startTestDaemon(root, { tools: [...TOOLS, ...OPERATOR_TOOLS], env: process.env });
  const a = await createReady(root, { title: 'First', agent: 'dev' });
  const b = await createReady(root, { title: 'Second', agent: 'dev' });
  await within(30_000, async () => (await statusOf(root, a)) === 'done' && (await statusOf(root, b)) === 'done', 'both tasks done');
  const seenA = JSON.parse(readFileSync(`${root}/seen-${a}`, 'utf8')) as { cwd: string; branch: string; files: string[] };
  const seenB = JSON.parse(readFileSync(`${root}/seen-${b}`, 'utf8')) as { cwd: string; branch: string; files: string[] };
  assert.is(seenA.cwd, `${root}/worktrees/${a}`);
  assert.is(seenB.cwd, `${root}/worktrees/${b}`);
  assert.equal([seenA.branch, seenB.branch], [`svc/${toRootId(root)}/${a}`, `svc/${toRootId(root)}/${b}`]);
  assert.equal(seenA.files, ['README.md', `${a}.txt`]);
  assert.equal(seenB.files, ['README.md', `${b}.txt`]);
  assert.equal(git(repo, 'show', '--name-only', '--format=', `svc/${toRootId(root)}/${a}`), `${a}.txt`);
});

ws('ten tasks dispatched at once into one repository all get worktrees (git is serialised per repository)', async () => {
  const root = tempRoot();
  const repo = makeRepo(`${root}/repo`);
  writeOrg(root, { agents: [{ id: 'dev', name: 'Dev', command: completingAgent(), maxConcurrent: 10, workspace: 'app' }], aof: { daemon: { ...FAST, maxConcurrentDispatches: 10 }, workspaces: { app: { repo } } } });
  const store = createStore({ root });
  await store.init();
  const ids: string[] = [];
  for (let i = 0; i < 10; i++) ids.push((await store.create({ title: `Task ${i}`, status: 'ready', routing: { agent: 'dev' }, createdBy: 'test' })).task.id);
  await startTestDaemon(root, { tools: TOOLS, env: process.env });
  await within(45_000, async () => (await Promise.all(ids.map((id) => statusOf(root, id)))).every((s) => s === 'done'), 'all ten done');
  const events = await readEvents(root, {});
  assert.equal(events.filter((e) => e.type === 'dispatch.failed').map((e) => e.payload.reason), [], 'no failed dispatch');
  assert.is(events.filter((e) => e.type === 'workspace.attached').length, 10);
  assert.equal(branches(repo), ['main', ...ids.map((id) => `svc/${toRootId(root)}/${id}`)].sort());
});

ws('a dirty worktree at done is kept and listed by svc doctor; svc task workspace --remove --force removes it, the branch stays', async () => {
  const root = tempRoot();
  const repo = makeRepo(`${root}/repo`);
  const agent = scriptAgent(SVC_BIN, `fs.writeFileSync('scratch.txt', 'not committed\\n'); complete({ summary: 'done' });`);
  writeOrg(root, { agents: [{ id: 'dev', name: 'Dev', command: agent, workspace: 'app' }], aof: { daemon: FAST, workspaces: { app: { repo } } } });
  await startTestDaemon(root, { tools: [...TOOLS, ...OPERATOR_TOOLS], env: process.env });
  const id = await createReady(root, { title: 'Leaves a mess', agent: 'dev' });
  await within(45_000, async () => (await readEvents(root, { taskId: id, type: 'workspace.kept' })).length === 1, 'workspace.kept');
  const path = `${root}/worktrees/${id}`;
  assert.ok(existsSync(`${path}/scratch.txt`), 'the worktree and its uncommitted file are kept');
  await closeDaemons();
  const doctor = await runSvc({ SVC_HOME: root, HOME: root }, 'doctor');
  assert.match(doctor.stdout, new RegExp(`kept worktree: ${id} at ${path} \\(branch svc/${toRootId(root)}/${id}\\): uncommitted changes when the task was done`));
  const plain = await runSvc({ SVC_HOME: root, HOME: root }, 'task', 'workspace', id, '--remove');
  assert.is(plain.code, 1);
  assert.match(plain.stderr, /uncommitted changes: commit them, or pass --force/);
  assert.ok(existsSync(path));
  const forced = await runSvc({ SVC_HOME: root, HOME: root }, 'task', 'workspace', id, '--remove', '--force');
  assert.is(forced.code, 0, forced.stderr);
  assert.not.ok(existsSync(path));
  assert.ok(branches(repo).includes(`svc/${toRootId(root)}/${id}`));
  assert.not.match((await runSvc({ SVC_HOME: root, HOME: root }, 'doctor')).stdout, /kept worktree/);
});

ws('a worktree svc did not create is never removed, and one in the way of a new worktree is a failed dispatch with git\'s message', async () => {
  const root = tempRoot();
  const repo = makeRepo(`${root}/repo`);
  writeOrg(root, { agents: [{ id: 'dev', name: 'Dev', command: completingAgent() }], aof: { daemon: { ...FAST, retryBackoffMs: [60_000] }, workspaces: { app: { repo } } } });
  const store = createStore({ root });
  await store.init();
  const mine = `${root}/mine`;
  git(repo, 'worktree', 'add', '-q', '-b', 'by-hand', mine, 'main');
  const byHand = await store.create({ title: 'Uses a worktree made by hand', status: 'backlog', routing: { agent: 'dev' }, createdBy: 'test' });
  await store.commit(byHand.task.id, (current) => ({ task: { ...current.task, workspace: { name: 'app', path: mine, branch: 'by-hand', base: 'main', host: hostname() } }, body: current.body, status: 'ready' }), 'test');
  const blocked = await store.create({ title: 'Its worktree path is taken', status: 'ready', routing: { agent: 'dev', workspace: 'app' }, createdBy: 'test' });
  mkdirSync(`${root}/worktrees/${blocked.task.id}`, { recursive: true });
  writeFileSync(`${root}/worktrees/${blocked.task.id}/keep.txt`, 'someone else\'s\n');
  await startTestDaemon(root, { tools: TOOLS, env: process.env });
  await within(20_000, async () => (await statusOf(root, byHand.task.id)) === 'done', 'the task with a hand-made worktree done');
  const failed = await within(20_000, async () => (await readEvents(root, { taskId: blocked.task.id, type: 'dispatch.failed' }))[0], 'dispatch.failed');
  assert.match(String(failed.payload.reason), /^workspace_failed: git worktree add -b svc\/\S+ .* failed: fatal: '.*' already exists$/, String(failed.payload.reason));
  assert.is(readFileSync(`${root}/worktrees/${blocked.task.id}/keep.txt`, 'utf8'), 'someone else\'s\n');
  const task = await store.get(blocked.task.id);
  assert.is(task.status, 'ready');
  assert.is(task.task.workspace, undefined, 'no half-made worktree recorded');
  assert.not.ok(branches(repo).includes(`svc/${toRootId(root)}/${blocked.task.id}`), 'no branch left behind');
  assert.not.ok(existsSync(`${root}/data/workspaces/${blocked.task.id}.json`), 'no record');
  // the poll that would remove a worktree of an ended task has run many times by now
  await within(5000, async () => (await readEvents(root, { type: 'daemon.started' })).length === 1);
  await new Promise((resolve) => setTimeout(resolve, 600));
  assert.ok(existsSync(mine), 'the hand-made worktree is still there');
  assert.ok(branches(repo).includes('by-hand'));
});

ws('a subtask with routing.workspace parent works in its parent\'s worktree, which stays until the subtask ends even when the parent is done first', async () => {
  const root = tempRoot();
  const repo = makeRepo(`${root}/repo`);
  const lead = scriptAgent(SVC_BIN, `
    fs.writeFileSync('parent.txt', 'from the parent\\n');
    sh('git', 'add', 'parent.txt'); sh('git', 'commit', '-q', '-m', 'parent work');
    sh(process.execPath, ${JSON.stringify(SVC_BIN)}, 'tool', 'svc_dispatch', JSON.stringify({ title: 'Sub', brief: 'help', agent: 'helper', parentId: env.SVC_TASK_ID, workspace: 'parent', actor: 'lead' }));
    complete({ summary: 'parent done' });`);
  const helper = scriptAgent(SVC_BIN, `
    const deadline = Date.now() + 20000;
    while (!fs.existsSync(env.SVC_HOME + '/go') && Date.now() < deadline) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    fs.writeFileSync(env.SVC_HOME + '/helper-seen', process.cwd() + ' ' + fs.readdirSync('.').filter((f) => f !== '.git').sort().join(','));
    fs.writeFileSync('helper.txt', 'from the subtask\\n');
    sh('git', 'add', 'helper.txt'); sh('git', 'commit', '-q', '-m', 'subtask work');
    complete({ summary: 'sub done' });`);
  writeOrg(root, { agents: [{ id: 'lead', name: 'Lead', command: lead, workspace: 'app' }, { id: 'helper', name: 'Helper', command: helper }], aof: { daemon: FAST, workspaces: { app: { repo } } } });
  await startTestDaemon(root, { tools: [...TOOLS, ...OPERATOR_TOOLS], env: process.env });
  const parent = await createReady(root, { title: 'Parent', agent: 'lead' });
  await within(20_000, async () => (await statusOf(root, parent)) === 'done', 'the parent done');
  const path = `${root}/worktrees/${parent}`;
  const store = createStore({ root });
  const sub = await within(10_000, async () => (await store.list()).tasks.find((t) => t.task.parentId === parent), 'the subtask');
  await within(10_000, async () => (await store.get(sub.task.id)).status === 'in-progress', 'the subtask dispatched');
  await new Promise((resolve) => setTimeout(resolve, 600)); // polls of the cleanup pass meanwhile
  assert.ok(existsSync(path), 'the parent\'s worktree is kept while its subtask works in it');
  writeFileSync(`${root}/go`, '');
  await within(20_000, async () => (await store.get(sub.task.id)).status === 'done', 'the subtask done');
  assert.is(readFileSync(`${root}/helper-seen`, 'utf8'), `${path} README.md,parent.txt`);
  assert.equal((await store.get(sub.task.id)).task.workspace?.path, path);
  await within(15_000, () => !existsSync(path), 'the worktree removed once no task works in it');
  assert.equal(git(repo, 'log', '--format=%s', `main..svc/${toRootId(root)}/${parent}`).split('\n'), ['subtask work', 'parent work']);
});

ws('a task naming an unknown workspace or check is refused at creation, with "Did you mean"', async () => {
  const root = tempRoot();
  const repo = makeRepo(`${root}/repo`);
  writeOrg(root, { agents: [{ id: 'dev', name: 'Dev' }], aof: { workspaces: { app: { repo } }, checks: { test: { run: ['true'] } } } });
  await startTestDaemon(root, { tools: [...TOOLS, ...OPERATOR_TOOLS], env: process.env, schedule: false });
  const refused = await call(root, 'POST', '/v1/tool/invoke', { tool: 'svc_dispatch', params: { title: 'x', brief: 'y', agent: 'dev', workspace: 'ap', verify: ['tset'] } });
  assert.is(refused.status, 400, JSON.stringify(refused.body));
  const text = JSON.stringify(refused.body);
  assert.match(text, /routing.workspace: unknown workspace \\"ap\\" \(known workspaces: app\)\. Did you mean \\"app\\"\?/);
  assert.match(text, /routing.verify: unknown check \\"tset\\" \(org chart checks: test\)\. Did you mean \\"test\\"\?/);
  const cli = await runSvc({ SVC_HOME: root, HOME: root }, 'task', 'create', 'Run', 'my', 'command', '--agent', 'dev', '--verify', 'rm-rf');
  assert.is(cli.code, 1);
  assert.match(cli.stderr, /unknown check "rm-rf"/);
  assert.equal((await createStore({ root }).list()).tasks, [], "nothing was created");
});

ws.run();
