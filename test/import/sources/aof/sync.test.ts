import { spawn } from 'node:child_process';
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SVC_BIN } from '../../../helpers/agents.js';
import { svc } from '../../../helpers/cli.js';
import { copyFixture, importJson, readTasks, toIds } from '../../../helpers/import.js';
import { cleanRoots, tempRoot } from '../../../helpers/root.js';

const T = (n: number) => `TASK-2026-11-26-00${n}`;

const sync = suite('import.aof.sync');
sync.after.each(() => cleanRoots());

/** A snapshot of every task file of a root: id -> text. */
function snapshot(root: string): Record<string, string> {
  return Object.fromEntries(Object.entries(readTasks(root)).map(([id, task]) => [id, task.text]));
}

sync('a second import creates and changes nothing; a dry run writes nothing', async () => {
  const root = tempRoot();
  const dir = copyFixture('aof');
  const dry = await importJson(root, 'aof', dir, '--dry-run');
  assert.is(dry.code, 0);
  assert.is(dry.report.summary.create, 11);
  assert.equal(readTasks(root), {});
  const first = await importJson(root, 'aof', dir);
  assert.is(first.report.summary.create, 11);
  const before = snapshot(root);
  const map = readFileSync(join(root, 'data/imports/aof.json'), 'utf8');
  const second = await importJson(root, 'aof', dir);
  assert.is(second.code, 0);
  assert.equal(second.report.summary, {
    create: 0,
    update: 0,
    unchanged: 11,
    kept: 0,
    missing: 0,
    invalid: 0,
    problems: 0,
    skipped: 0,
    cycles: 0,
  });
  assert.equal(snapshot(root), before);
  assert.is(readFileSync(join(root, 'data/imports/aof.json'), 'utf8'), map);
});

sync('a change in AOF updates the task; a task changed in svc is kept', async () => {
  const root = tempRoot();
  const dir = copyFixture('aof');
  const ids = toIds((await importJson(root, 'aof', dir)).report.items);
  const blocked = join(dir, 'tasks/blocked', `${T(4)}.md`);
  const text = readFileSync(blocked, 'utf8');
  writeFileSync(
    blocked,
    text
      .replace('title: Migrate the DNS zone', 'title: Migrate the DNS zone to the new provider')
      .replace('Move the zone to the new provider.\n', 'Move the zone.\n\nThen lower the TTLs.\n'),
  );
  const backlog = join(dir, 'tasks/backlog', `${T(1)}.md`);
  writeFileSync(
    backlog,
    readFileSync(backlog, 'utf8').replace('title: Write the runbook', 'title: Write the restart runbook'),
  );
  assert.is((await svc(root, 'task', 'block', T(1), '--reason', 'waiting for the outage review')).code, 0);
  const { code, report } = await importJson(root, 'aof', dir);
  assert.is(code, 0);
  const action = Object.fromEntries(report.items.map((item) => [item.sourceId, item.action]));
  assert.is(action[T(4)], 'update');
  assert.is(action[T(1)], 'kept');
  assert.is(report.items.filter((item) => item.action === 'unchanged').length, 9);
  const tasks = readTasks(root);
  assert.match(tasks[T(4)]!.text, /title: Migrate the DNS zone to the new provider\n/);
  assert.is(tasks[T(4)]!.body, 'Move the zone.\n\nThen lower the TTLs.\n');
  assert.is(tasks[T(4)]!.status, 'blocked');
  assert.match(tasks[T(1)]!.text, /title: Write the runbook\n/);
  assert.match(tasks[T(1)]!.text, /blockReason: waiting for the outage review\n/);
  assert.is(Object.keys(tasks).length, 11);
  assert.is(ids[T(4)], T(4));
});

sync('two imports at once (two processes) create each task once and keep each event line once', async () => {
  const root = tempRoot();
  const dir = copyFixture('aof');
  const run = () =>
    new Promise<number>((resolve) => {
      const child = spawn(process.execPath, [SVC_BIN, 'import', 'aof', dir], {
        env: { ...process.env, SVC_HOME: root },
        stdio: 'ignore',
      });
      child.on('close', (code) => resolve(code ?? -1));
    });
  assert.equal(await Promise.all([run(), run()]), [0, 0]);
  const tasks = readTasks(root);
  const sources = Object.values(tasks).map(
    ({ text }) => /\n  source:\n    system: aof\n    id: (\S+)\n/.exec(text)?.[1],
  );
  assert.is(sources.length, 11);
  assert.is(new Set(sources).size, 11, 'a source id was imported twice');
  assert.is(Object.keys(JSON.parse(readFileSync(join(root, 'data/imports/aof.json'), 'utf8')).entries).length, 11);
  assert.is(
    readFileSync(join(root, 'data/imports/aof-events.jsonl'), 'utf8'),
    readFileSync(join(dir, 'events/2026-11-26.jsonl'), 'utf8'),
  );
  assert.is((await importJson(root, 'aof', dir)).report.summary.unchanged, 11);
});

sync(
  'bad input: not an AOF directory is refused; a malformed file and a bad event line are reported, a dangling dependency kept, the rest go in',
  async () => {
    const root = tempRoot();
    const notAof = await svc(root, 'import', 'aof', copyFixture('not-a-source'));
    assert.is(notAof.code, 1);
    assert.match(
      notAof.stderr,
      /is not an AOF data directory: it has neither tasks\/ nor Projects\/<project>\/tasks\//,
    );
    assert.not.ok(existsSync(join(root, 'tasks')), 'nothing written');
    const missing = await svc(root, 'import', 'aof', join(root, 'nowhere'));
    assert.is(missing.code, 1);
    assert.match(missing.stderr, /is not an AOF data directory/);

    const dir = copyFixture('aof');
    writeFileSync(
      join(dir, 'tasks/ready/TASK-2026-11-26-090.md'),
      '---\nid: TASK-2026-11-26-090\ntitle: [unclosed\n---\nbody\n',
    );
    writeFileSync(
      join(dir, 'tasks/done/TASK-2026-11-26-091.md'),
      '---\nschemaVersion: 1\nid: TASK-2026-11-26-091\nstatus: done\n---\nNo title.\n',
    );
    writeFileSync(join(dir, 'tasks/backlog/TASK-2026-11-26-092.md'), 'no frontmatter at all\n');
    symlinkSync(join(dir, `tasks/done/${T(6)}.md`), join(dir, 'tasks/done/TASK-2026-11-26-094.md'));
    writeFileSync(
      join(dir, 'events/2026-11-26.jsonl'),
      `${readFileSync(join(dir, 'events/2026-11-26.jsonl'), 'utf8')}{"type": broken\n`,
    );
    const orphan = readFileSync(join(dir, 'tasks/done', `${T(6)}.md`), 'utf8')
      .replaceAll(T(6), 'TASK-2026-11-26-093')
      .replace('dependsOn: []', 'dependsOn:\n  - TASK-2026-11-20-001');
    writeFileSync(join(dir, 'tasks/done/TASK-2026-11-26-093.md'), orphan);
    const { code, report } = await importJson(root, 'aof', dir);
    assert.is(code, 1);
    assert.is(report.summary.create, 12);
    assert.equal(report.items.find((item) => item.sourceId === 'TASK-2026-11-26-093')!.dangling, [
      'TASK-2026-11-20-001',
    ]);
    const doctor = await svc(root, 'doctor');
    assert.match(
      doctor.stdout,
      /^dangling dependency: TASK-2026-11-26-093 depends on TASK-2026-11-20-001, which is not a task/m,
    );
    const problems = Object.fromEntries(report.problems.map((p) => [p.file.replace(`${dir}/`, ''), p.reason]));
    assert.match(problems['tasks/ready/TASK-2026-11-26-090.md']!, /malformed YAML frontmatter/);
    assert.match(problems['tasks/done/TASK-2026-11-26-091.md']!, /expected frontmatter with a `title`/);
    assert.match(problems['tasks/backlog/TASK-2026-11-26-092.md']!, /no YAML frontmatter/);
    assert.match(problems['tasks/done/TASK-2026-11-26-094.md']!, /not a regular file/);
    assert.match(problems['events/2026-11-26.jsonl:25']!, /not a JSON event/);
    assert.is(Object.keys(readTasks(root)).length, 12);
    assert.is(readFileSync(join(root, 'data/imports/aof-events.jsonl'), 'utf8').trim().split('\n').length, 24);
    const text = await svc(root, 'import', 'aof', dir, '--dry-run');
    assert.match(text.stdout, /unreadable .*TASK-2026-11-26-090\.md: malformed YAML frontmatter/);
  },
);

sync.run();
