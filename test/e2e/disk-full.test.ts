import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { toPaths } from '../../lib/store/disk/paths.js';
import { TOOLS } from '../../lib/tools/index.js';
import { OPERATOR_TOOLS } from '../../lib/tools/operator.js';
import { call, closeDaemons, runSvc, startTestDaemon } from '../helpers/daemon.js';
import { cleanRoots, within } from '../helpers/root.js';
import { fillDisk, mountTmpfs, unmountAll } from '../helpers/tmpfs.js';

// A full disk (docs/reliability.md): writes fail with a clear error and leave nothing behind,
// reads go on, and everything works again once space returns, without a restart.

const tempFiles = (dir: string) =>
  readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(new|tmp)$|\.md\.[^/]+$/.test(e.name))
    .map((e) => join(e.parentPath, e.name));

const full = suite('e2e: a daemon on a full disk');
full.after.each(async () => {
  await closeDaemons();
  unmountAll();
  cleanRoots();
});

full(
  'creates and moves fail with the path, reads and health go on, and the daemon recovers when space returns',
  async () => {
    const root = mountTmpfs('4m');
    const daemon = await startTestDaemon(root, { tools: [...TOOLS, ...OPERATOR_TOOLS], schedule: false });
    const env = { SVC_HOME: root };
    const first = await runSvc(env, 'task', 'create', 'Before', 'the', 'disk', 'fills');
    assert.is(first.code, 0, first.stderr);
    const id = first.stdout.split('\n')[0]!;
    const records = readdirSync(toPaths(root).requests);
    const free = fillDisk(root);

    // A command's change is refused before it acts: its request record (docs/daemon.md) finds no room.
    const create = await runSvc(env, 'task', 'create', 'During', '--body', 'x'.repeat(5000));
    assert.is(create.code, 1);
    assert.match(create.stderr, /svc: No space left on device writing .*\/data\/requests\/[0-9a-f]{40}\.json\./);
    assert.match(create.stderr, /hint: Free space/);
    assert.is((await runSvc(env, 'task', 'promote', id)).code, 1);
    // A call without a request id gets as far as the task file.
    const invoke = (tool: string, params: unknown) =>
      call(root, 'POST', '/v1/tool/invoke', { tool, params }) as Promise<{ status: number; body: any }>;
    const created = await invoke('operator_task_create', { title: 'During', body: 'x'.repeat(5000) });
    assert.is(created.status, 507);
    assert.match(created.body.error.message, /^No space left on device writing .*\/tasks\/backlog\/TASK-[\d-]+\.md\.$/);
    const promoted = await invoke('operator_task_promote', { taskId: id });
    assert.is(promoted.status, 507);
    assert.match(promoted.body.error.message, new RegExp(`No space left on device writing .*/tasks/ready/${id}\\.md`));

    assert.is((await call(root, 'GET', '/healthz')).status, 200);
    assert.ok(
      existsSync(toPaths(root).socket) && readFileSync(toPaths(root).daemonLog, 'utf8').includes('daemon.started'),
      'the calls went through the daemon',
    );
    const list = await runSvc(env, 'task', 'list');
    assert.is(list.code, 0, list.stderr);
    assert.match(list.stdout, id);
    assert.not.match(list.stdout, /During/);
    const show = await runSvc(env, 'task', 'show', id);
    assert.is(show.code, 0, show.stderr);
    for (let i = 0; i < 20; i++) assert.is((await runSvc(env, 'task', 'create', `Refused ${i}`)).code, 1); // each failure is logged: the log's last page fills
    assert.equal(tempFiles(root), []);
    assert.equal(
      readdirSync(toPaths(root).requests),
      records,
      'no request record (nor its temporary) of a refused change',
    );

    free();
    const after = await runSvc(env, 'task', 'create', 'After', 'space', 'returns');
    assert.is(after.code, 0, after.stderr);
    assert.is((await runSvc(env, 'task', 'promote', id)).code, 0);
    const rows = JSON.parse((await runSvc(env, 'task', 'list', '--json')).stdout) as {
      id: string;
      title: string;
      status: string;
    }[];
    assert.equal(rows.map((r) => [r.title, r.status]).sort(), [
      ['After space returns', 'backlog'],
      ['Before the disk fills', 'ready'],
    ]);
    assert.equal(tempFiles(root), []);
    await daemon.close();
    await within(
      5000,
      () => /info daemon\.stopped/.test(readFileSync(toPaths(root).daemonLog, 'utf8')),
      'the daemon log written again after the outage',
    );
  },
);

full.run();
