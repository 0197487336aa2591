import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { toRootId } from '../../lib/core/branch-template.js';
import { readEvents } from '../../lib/store/events/log.js';
import { createStore } from '../../lib/store/commit/store.js';
import { TOOLS } from '../../lib/tools/index.js';
import { APPROVAL_TOOLS } from '../../lib/tools/approval.js';
import { OPERATOR_TOOLS } from '../../lib/tools/operator.js';
import { SVC_BIN, writeOrg } from '../helpers/agents.js';
import { call, closeDaemons, runSvc, startTestDaemon } from '../helpers/daemon.js';
import { branches, git, makeRepo, scriptAgent } from '../helpers/git.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';
import { createReady, FAST, statusOf } from './workspace-setup.js';

// Workspaces (docs/workspaces.md): a git worktree per task, kept across the gates of its
// workflow, removed at done when clean, kept when dirty, never removed when svc did not make it.
// Concurrency: workspace-concurrency.test.ts; cleanup and subtasks: workspace-cleanup.test.ts.
const ws = suite('e2e.workspaces');
ws.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

ws(
  'implement -> review with a check -> approval: one worktree across the gates, a failed check sends the task back with its output, the fix passes, the task waits for approval, approved it is done, the worktree is removed and the branch keeps the commits',
  async () => {
    const root = tempRoot();
    const repo = makeRepo(`${root}/repo`);
    const implementer = scriptAgent(
      SVC_BIN,
      `
    fs.appendFileSync(env.SVC_HOME + '/cwd-impl', process.cwd() + '\\n');
    fs.writeFileSync('feature.txt', 'the feature\\n');
    sh('git', 'add', 'feature.txt'); sh('git', 'commit', '-q', '-m', 'implement the feature');
    complete({ outcome: 'complete', summary: 'implemented' });`,
    );
    const reviewer = scriptAgent(
      SVC_BIN,
      `
    fs.appendFileSync(env.SVC_HOME + '/cwd-rev', process.cwd() + ' ' + env.SVC_WORKSPACE + ' ' + env.SVC_BRANCH + ' ' + sh('git', 'log', '--format=%s', '-1').trim() + '\\n');
    if (env.SVC_TASK_BRIEF.includes('## Check failed: test')) {
      fs.writeFileSync('fixed.txt', 'fixed\\n');
      sh('git', 'add', 'fixed.txt'); sh('git', 'commit', '-q', '-m', 'fix what the check found');
    }
    complete({ outcome: 'complete', summary: 'reviewed' });`,
    );
    const check = [
      process.execPath,
      '-e',
      "if (!require('fs').existsSync('fixed.txt')) { console.log('FAIL: fixed.txt is missing'); process.exit(1) } console.log('all good')",
    ];
    writeOrg(root, {
      agents: [
        { id: 'impl', name: 'Impl', command: implementer },
        { id: 'rev', name: 'Rev', command: reviewer },
      ],
      roles: { implementer: { agents: ['impl'] }, reviewer: { agents: ['rev'] } },
      aof: {
        daemon: FAST,
        workspaces: { app: { repo, base: 'main', root: `${root}/wt` } },
        checks: { test: { run: check, timeoutMs: 20_000 } },
      },
    });
    mkdirSync(`${root}/org/workflows`, { recursive: true });
    writeFileSync(
      `${root}/org/workflows/ship.yaml`,
      'workflow:\n  name: ship\n  gates:\n    - id: implement\n      role: implementer\n    - id: review\n      role: reviewer\n      verify: [test]\n    - id: approve\n      approval: true\n',
    );
    await startTestDaemon(root, { tools: [...TOOLS, ...APPROVAL_TOOLS, ...OPERATOR_TOOLS], env: process.env });
    const id = await createReady(root, { title: 'Add the feature', workflow: 'ship', workspace: 'app' });
    await within(30_000, async () => (await statusOf(root, id)) === 'blocked', `${id} to wait for approval`);
    const path = `${root}/wt/${id}`;
    const awaiting = await runSvc({ SVC_HOME: root, HOME: root }, 'task', 'list', '--awaiting', '--json');
    assert.equal(
      (JSON.parse(awaiting.stdout) as { id: string; awaiting: { gate: string } }[]).map((row) => [
        row.id,
        row.awaiting.gate,
      ]),
      [[id, 'approve']],
    );
    assert.ok(existsSync(`${path}/fixed.txt`), 'the worktree is kept while the task waits');
    const approved = await runSvc({ SVC_HOME: root, HOME: root }, 'task', 'approve', id, '--note', 'ship it');
    assert.is(approved.code, 0, approved.stderr);
    await within(15_000, async () => (await statusOf(root, id)) === 'done', `${id} to be done`);
    assert.equal(readFileSync(`${root}/cwd-impl`, 'utf8'), `${path}\n`, 'the implementer ran in the worktree');
    const reviews = readFileSync(`${root}/cwd-rev`, 'utf8').trim().split('\n');
    assert.equal(
      reviews,
      [
        `${path} ${path} svc/${toRootId(root)}/${id} implement the feature`,
        `${path} ${path} svc/${toRootId(root)}/${id} implement the feature`,
      ],
      'the reviewer ran twice in the same worktree and saw the commit',
    );
    const task = await createStore({ root }).get(id);
    assert.match(task.body, /## Check failed: test \(/);
    assert.match(task.body, /FAIL: fixed\.txt is missing/);
    assert.equal(task.task.workspace, {
      name: 'app',
      path,
      branch: `svc/${toRootId(root)}/${id}`,
      base: 'main',
      host: task.task.workspace!.host,
    });
    assert.is((task.task.metadata.lastCheck as { exitCode: number }).exitCode, 0);
    const events = await within(
      5000,
      async () => {
        const all = await readEvents(root, { taskId: id });
        return all.some((e) => e.type === 'task.completed') && all;
      },
      'task.completed',
    ); // appended just after the commit
    assert.equal(
      events
        .filter((e) => e.type === 'task.check_failed')
        .map((e) => [e.payload.name, e.payload.exitCode, e.payload.to]),
      [['test', 1, 'ready']],
    );
    assert.is(events.filter((e) => e.type === 'task.verified').length, 1);
    assert.is(events.filter((e) => e.type === 'task.completed').length, 1);
    const failedLog = String(events.find((e) => e.type === 'task.check_failed')!.payload.log);
    assert.ok(failedLog.startsWith(`${root}/data/logs/runs/${id}/check-test-1.log`), failedLog);
    assert.match(
      readFileSync(failedLog, 'utf8'),
      new RegExp(
        `^=== svc run: task ${id}, check test, session \\S+, started \\S+ ===\\nFAIL: fixed.txt is missing\\n`,
      ),
    );
    const show = await runSvc({ SVC_HOME: root, HOME: root }, 'task', 'show', id);
    assert.match(
      show.stdout,
      new RegExp(
        `^workspace: app at ${path} \\(branch svc/${toRootId(root)}/${id}, from main, host \\S+\\)(: removed by svc at \\S+ \\(task done\\))?$`,
        'm',
      ),
    ); // removed at done, perhaps already
    await within(15_000, () => !existsSync(path), 'the worktree to be removed');
    assert.ok(branches(repo).includes(`svc/${toRootId(root)}/${id}`), 'the branch is kept');
    assert.equal(git(repo, 'log', '--format=%s', `main..svc/${toRootId(root)}/${id}`).split('\n'), [
      'fix what the check found',
      'implement the feature',
    ]);
  },
);

ws('a task naming an unknown workspace or check is refused at creation, with "Did you mean"', async () => {
  const root = tempRoot();
  const repo = makeRepo(`${root}/repo`);
  writeOrg(root, {
    agents: [{ id: 'dev', name: 'Dev' }],
    aof: { workspaces: { app: { repo } }, checks: { test: { run: ['true'] } } },
  });
  await startTestDaemon(root, { tools: [...TOOLS, ...OPERATOR_TOOLS], env: process.env, schedule: false });
  const refused = await call(root, 'POST', '/v1/tool/invoke', {
    tool: 'svc_dispatch',
    params: { title: 'x', brief: 'y', agent: 'dev', workspace: 'ap', verify: ['tset'] },
  });
  assert.is(refused.status, 400, JSON.stringify(refused.body));
  const text = JSON.stringify(refused.body);
  assert.match(
    text,
    /routing.workspace: unknown workspace \\"ap\\" \(known workspaces: app\)\. Did you mean \\"app\\"\?/,
  );
  assert.match(text, /routing.verify: unknown check \\"tset\\" \(org chart checks: test\)\. Did you mean \\"test\\"\?/);
  const cli = await runSvc(
    { SVC_HOME: root, HOME: root },
    'task',
    'create',
    'Run',
    'my',
    'command',
    '--agent',
    'dev',
    '--verify',
    'rm-rf',
  );
  assert.is(cli.code, 1);
  assert.match(cli.stderr, /unknown check "rm-rf"/);
  assert.equal((await createStore({ root }).list()).tasks, [], 'nothing was created');
});

ws.run();
