import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readEvents } from '../../lib/store/events/log.js';
import { cancelTask } from '../../lib/store/changes/ops.js';
import { createStore } from '../../lib/store/commit/store.js';
import { closeTask } from '../../lib/store/changes/work.js';
import { TOOLS } from '../../lib/tools/index.js';
import { OPERATOR_TOOLS } from '../../lib/tools/operator.js';
import { startWorker, killWorkers } from '../helpers/children.js';
import { svc } from '../helpers/cli.js';
import { closeDaemons, startTestDaemon } from '../helpers/daemon.js';
import { cleanRoots, fixedClock, tempRoot, within } from '../helpers/root.js';

const archive = suite('cli.archive');
archive.after.each(async () => {
  await killWorkers();
  await closeDaemons();
  cleanRoots();
});

const firstId = (out: { stdout: string }) => out.stdout.split('\n')[0]!;

/** An old done task, an old cancelled one, a recent done one, an old open one (all created 2026-09-10, moved 2026-09-15 or now). */
async function seed(root: string) {
  const clock = fixedClock('2026-09-10T08:00:00.000Z');
  const old = createStore({ root, clock });
  const ids = {
    done: (await old.create({ title: 'Old done', createdBy: 'test' })).task.id,
    cancelled: (await old.create({ title: 'Old cancelled', createdBy: 'test' })).task.id,
    recent: (await old.create({ title: 'Recent done', createdBy: 'test' })).task.id,
    open: (await old.create({ title: 'Old open', createdBy: 'test' })).task.id,
  };
  clock.set('2026-09-15T12:00:00.000Z');
  await closeTask(old, ids.done, { actor: 'operator' });
  await cancelTask(old, ids.cancelled, { actor: 'operator' });
  await closeTask(createStore({ root }), ids.recent, { actor: 'operator' });
  return ids;
}

archive(
  'moves old done and cancelled tasks to tasks/archive/<yyyy-mm>/; show still finds them; events are kept',
  async () => {
    const root = tempRoot();
    const ids = await seed(root);
    const dry = await svc(root, 'archive', '--dry-run');
    assert.is(dry.code, 0, dry.stderr);
    assert.match(
      dry.stdout,
      new RegExp(
        `would archive ${ids.done} \\(done since 2026-09-15T12:00:00.000Z\\) -> tasks/archive/2026-09/${ids.done}.md\n`,
      ),
    );
    assert.match(dry.stdout, /2 would archive, 0 kept, 0 refused/);
    assert.ok(existsSync(`${root}/tasks/done/${ids.done}.md`), 'a dry run moves nothing');
    const run = await svc(root, 'archive', '--json');
    const report = JSON.parse(run.stdout) as { moved: { id: string; to: string }[] };
    assert.equal(
      report.moved.map((move) => [move.id, move.to]),
      [
        [ids.done, `tasks/archive/2026-09/${ids.done}.md`],
        [ids.cancelled, `tasks/archive/2026-09/${ids.cancelled}.md`],
      ],
    );
    assert.not.ok(existsSync(`${root}/tasks/done/${ids.done}.md`));
    assert.match(readFileSync(`${root}/tasks/archive/2026-09/${ids.cancelled}.md`, 'utf8'), /status: cancelled/);
    assert.ok(existsSync(`${root}/tasks/done/${ids.recent}.md`), 'a recent task stays');
    assert.ok(existsSync(`${root}/tasks/backlog/${ids.open}.md`), 'an open task stays');
    const list = JSON.parse((await svc(root, 'task', 'list', '--all', '--json')).stdout) as { id: string }[];
    assert.equal(
      list.map((row) => row.id),
      [ids.recent, ids.open],
    );
    const show = await svc(root, 'task', 'show', '001');
    assert.match(
      show.stdout,
      new RegExp(`id: ${ids.done}\n[\\s\\S]*status: done\n[\\s\\S]*file: ${root}/tasks/archive/2026-09/${ids.done}.md`),
    );
    const events = (await readEvents(root, { taskId: ids.done })).map((event) => event.type);
    assert.equal(events.slice(0, 2), ['task.created', 'task.transitioned']);
    assert.equal(events.at(-1), 'task.archived');
    const child = firstId(await svc(root, 'task', 'create', 'Follow-up', '--parent', ids.done));
    assert.equal(
      JSON.parse((await svc(root, 'task', 'list', '--parent', '2026-09-10-001', '--json')).stdout).map(
        (row: { id: string }) => row.id,
      ),
      [child],
      'an archived parent still names its children',
    );
    assert.match(
      (await svc(root, 'task', 'tree', ids.done)).stdout,
      new RegExp(`^${ids.done}  done  Old done\n└─ ${child}  backlog  Follow-up\n$`),
    );
    const doctor = await svc(root, 'doctor');
    assert.not.match(doctor.stdout, /archive/);
    assert.is(
      (await svc(root, 'archive')).stdout.trim().split('\n').at(-1)!.startsWith('0 archived'),
      true,
      'a second run has nothing to do',
    );
  },
);

archive(
  'a task under a live lease is refused (exit 1), a dependency of an open task is kept, the rest is archived',
  async () => {
    const root = tempRoot();
    const ids = await seed(root);
    const leased = `${root}/tasks/done/${ids.done}.md`;
    const future = new Date(Date.now() + 600_000).toISOString();
    writeFileSync(
      leased,
      readFileSync(leased, 'utf8').replace(
        '\ndependsOn:',
        `\nlease:\n  agent: dev\n  expiresAt: '${future}'\n  sessionId: s-1\ndependsOn:`,
      ),
    );
    await svc(root, 'task', 'create', 'Waits', '--depends-on', ids.cancelled);
    const out = await svc(root, 'archive', '--older-than', '2026-10-01');
    assert.is(out.code, 1);
    assert.match(
      out.stderr,
      new RegExp(`svc: refused ${ids.done}: Task has active lease: ${ids.done} is held by agent dev`),
    );
    assert.match(out.stdout, new RegExp(`kept ${ids.cancelled}: TASK-\\S+ \\(not done\\) depends on it\n`));
    assert.match(out.stdout, /0 archived, 1 kept, 1 refused/);
    assert.ok(existsSync(leased) && existsSync(`${root}/tasks/cancelled/${ids.cancelled}.md`), 'nothing moved');
  },
);

archive('a task whose lock another process holds is refused as locked, and stays', async () => {
  const root = tempRoot();
  const ids = await seed(root);
  const holder = startWorker({ op: 'hold', root, id: ids.done, status: 'done' });
  await holder.waitFor(/^holding$/, 15_000);
  const out = await svc(root, 'archive', '--json');
  const report = JSON.parse(out.stdout) as { moved: { id: string }[]; refused: { id: string; code: string }[] };
  assert.equal(
    [out.code, report.refused.map((skip) => [skip.id, skip.code]), report.moved.map((move) => move.id)],
    [1, [[ids.done, 'locked']], [ids.cancelled]],
  );
  assert.ok(existsSync(`${root}/tasks/done/${ids.done}.md`));
});

archive(
  'with a daemon, the archive is its call: its index drops the tasks, and its rescans and watcher ignore the archive',
  async () => {
    const root = tempRoot();
    const ids = await seed(root);
    const daemon = await startTestDaemon(root, { schedule: false, tools: [...TOOLS, ...OPERATOR_TOOLS] });
    await daemon.index.loaded;
    assert.is(daemon.index.get(ids.done)?.status, 'done');
    const out = await svc(root, 'archive');
    assert.match(out.stdout, /2 archived, 0 kept, 0 refused/, out.stderr);
    assert.is(daemon.index.get(ids.done), undefined);
    assert.is(daemon.index.get(ids.cancelled), undefined);
    const seen = daemon.index.counts();
    await within(
      15_000,
      async () => (await readEvents(root)).filter((event) => event.type === 'task.archived').length === 2,
      'the archive events',
    );
    await daemon.index.rescan({ full: true });
    assert.equal(daemon.index.counts(), seen);
    assert.equal(daemon.index.invalid(), []);
    assert.match((await svc(root, 'task', 'show', ids.done)).stdout, /file: .+\/tasks\/archive\/2026-09\//);
  },
);

archive('bad input is refused, moving nothing', async () => {
  const root = tempRoot();
  const ids = await seed(root);
  const bad = await svc(root, 'archive', '--older-than', 'a while');
  assert.is(bad.code, 1);
  assert.match(bad.stderr, /--older-than must be a duration back from now or a date \(found "a while"\)/);
  assert.ok(existsSync(`${root}/tasks/done/${ids.done}.md`));
  const missing = await svc(root, 'task', 'show', '999');
  assert.match(missing.stderr, /No task has the sequence number "999"/);
});

archive.run();
