import { existsSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startWorkspaceCleanup } from '../../lib/engine/workspaces/cleanup.js';
import { readEvents } from '../../lib/store/events/log.js';
import { createStore } from '../../lib/store/commit/store.js';
import { TOOLS } from '../../lib/tools/index.js';
import { readRecord, writeRecord } from '../../lib/workspace/records.js';
import { completingAgent, writeOrg } from '../helpers/agents.js';
import { closeDaemons, startTestDaemon } from '../helpers/daemon.js';
import { branches, git, makeRepo } from '../helpers/git.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';

// A symbolic link planted where a worktree goes (`<root>/<dir>`) would make git create the worktree
// outside the worktree root, and its removal at done delete the folder out there: svc never makes,
// uses or removes a worktree through a link (docs/workspaces.md).
const FAST = { bootWindowMs: 200, pollIntervalMs: 200, agentStopGraceMs: 300, retryBackoffMs: [60_000] };

const links = suite('e2e.workspace links');
links.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

links(
  'a symbolic link planted at a worktree path is refused with a reason naming it, and the folder it points to survives',
  async () => {
    const root = tempRoot();
    const repo = makeRepo(`${root}/repo`);
    const outside = `${tempRoot()}/outside`;
    mkdirSync(outside);
    writeOrg(root, {
      agents: [{ id: 'dev', name: 'Dev', command: completingAgent(), workspace: 'app' }],
      aof: { daemon: FAST, workspaces: { app: { repo, root: `${root}/wt` } } },
    });
    const store = createStore({ root });
    await store.init();
    const { task } = await store.create({
      title: 'Lands outside',
      status: 'ready',
      routing: { agent: 'dev' },
      createdBy: 'test',
    });
    mkdirSync(`${root}/wt`);
    symlinkSync(outside, `${root}/wt/${task.id}`);
    await startTestDaemon(root, { tools: TOOLS, env: process.env });
    const failed = await within(
      20_000,
      async () => (await readEvents(root, { taskId: task.id, type: 'dispatch.failed' }))[0],
      'dispatch.failed',
    );
    assert.match(
      String(failed.payload.reason),
      new RegExp(
        `^workspace_failed: ${root}/wt/${task.id} is a symbolic link to ${outside}: svc never makes, uses or removes a worktree through a link`,
      ),
    );
    assert.equal(readdirSync(outside), [], 'nothing was made out there');
    assert.equal(branches(repo), ['main'], 'no branch was made');
    const after = await store.get(task.id);
    assert.is(after.status, 'ready');
    assert.is(after.task.workspace, undefined);
  },
);

links(
  'a later dispatch into a recorded worktree whose path is now a symbolic link is refused, naming it; nothing runs out there',
  async () => {
    const root = tempRoot();
    const outside = `${tempRoot()}/outside`;
    mkdirSync(outside);
    writeOrg(root, { agents: [{ id: 'dev', name: 'Dev', command: completingAgent() }], aof: { daemon: FAST } });
    const store = createStore({ root });
    await store.init();
    const { task } = await store.create({
      title: 'Swapped',
      status: 'backlog',
      routing: { agent: 'dev' },
      createdBy: 'test',
    });
    symlinkSync(outside, `${root}/swapped`);
    await store.commit(
      task.id,
      (current) => ({
        task: {
          ...current.task,
          workspace: { name: 'app', path: `${root}/swapped`, branch: 'b', base: 'main', host: hostname() },
        },
        body: current.body,
        status: 'ready',
      }),
      'test',
    );
    await startTestDaemon(root, { tools: TOOLS, env: process.env });
    const failed = await within(
      20_000,
      async () => (await readEvents(root, { taskId: task.id, type: 'dispatch.failed' }))[0],
      'dispatch.failed',
    );
    assert.match(
      String(failed.payload.reason),
      new RegExp(
        `^workspace_failed: ${root}/swapped is a symbolic link to ${outside}: svc never makes, uses or removes a worktree through a link`,
      ),
    );
    assert.equal(readdirSync(outside), []);
  },
);

links('a worktree recorded under a path that is now a link is kept at done, not removed through it', async () => {
  const root = tempRoot();
  const repo = makeRepo(`${root}/repo`);
  const outside = `${tempRoot()}/outside`;
  mkdirSync(outside);
  mkdirSync(`${root}/wt`);
  const store = createStore({ root });
  await store.init();
  const { task } = await store.create({
    title: 'Made through a link',
    status: 'done',
    routing: { agent: 'dev' },
    createdBy: 'test',
  });
  const path = `${root}/wt/${task.id}`;
  symlinkSync(outside, path);
  git(repo, 'worktree', 'add', '-q', '-b', `svc/${task.id}`, path, 'main'); // as an older svc did: git follows the link
  await writeRecord(store.paths.workspaces, {
    taskId: task.id,
    name: 'app',
    repo,
    path,
    root: `${root}/wt`,
    branch: `svc/${task.id}`,
    base: 'main',
    host: hostname(),
    createdAt: new Date().toISOString(),
  });
  const lines: string[] = [];
  const cleanup = startWorkspaceCleanup({ store, log: (line) => lines.push(line) });
  await cleanup.sweep();
  await cleanup.close();
  assert.ok(existsSync(`${outside}/README.md`), 'the folder out there is untouched');
  assert.match(
    (await readRecord(store.paths.workspaces, task.id))?.kept?.reason ?? '',
    /is a symbolic link to .*outside: svc never makes, uses or removes a worktree through a link/,
  );
  assert.equal(
    (await readEvents(root, { taskId: task.id, type: 'workspace.kept' })).map((e) => e.payload.reason),
    ['symbolic link'],
  );
  assert.is(lines.length, 1);
});

links.run();
