import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readEvents } from '../../lib/store/events/log.js';
import { svc } from '../helpers/cli.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

/** Every task file of a root: relative path -> content. */
function taskFiles(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const status of readdirSync(join(root, 'tasks'))) {
    if (status.startsWith('.')) continue;
    for (const name of readdirSync(join(root, 'tasks', status)))
      if (name.endsWith('.md')) out[`${status}/${name}`] = readFileSync(join(root, 'tasks', status, name), 'utf8');
  }
  return out;
}

async function makeTree(): Promise<{ root: string; ids: string[] }> {
  const root = tempRoot();
  const ids: string[] = [];
  const create = async (...args: string[]) => {
    const out = await svc(root, 'task', 'create', ...args);
    assert.is(out.code, 0, out.stderr);
    ids.push(out.stdout.split('\n')[0]!);
  };
  await create('First', '--body', 'line one\n\n```\ncode\n```\n');
  await create('Second', '--priority', 'high', '--tags', 'a,b', '--agent', 'dev');
  await create('Third', '--depends-on', ids[1]!, '--body', 'tab\there, unicode \u00e9\u202e');
  assert.is((await svc(root, 'task', 'close', ids[0]!)).code, 0);
  assert.is((await svc(root, 'task', 'status', ids[2]!, 'ready')).code, 0);
  return { root, ids };
}

const roundTrip = suite('cli.export and import svc');
roundTrip.after.each(cleanRoots);

roundTrip('export, import into an empty root, export: the same tasks, byte for byte', async () => {
  const { root } = await makeTree();
  const first = await svc(root, 'export');
  assert.is(first.code, 0, first.stderr);
  const file = join(tempRoot(), 'export.json');
  writeFileSync(file, first.stdout);
  const other = tempRoot();
  const imported = await svc(other, 'import', 'svc', file);
  assert.is(imported.code, 0, imported.stderr);
  assert.match(imported.stdout, /Summary: 3 created, 0 updated/);
  const second = await svc(other, 'export');
  assert.equal(JSON.parse(second.stdout).tasks, JSON.parse(first.stdout).tasks);
  assert.equal(taskFiles(other), taskFiles(root));
  assert.not.match(first.stdout, /\u202e/); // written as an escape, never raw
  assert.is((await readEvents(other, { type: 'task.imported' })).length, 3);
  const again = await svc(other, 'import', 'svc', file);
  assert.match(again.stdout, /Summary: 0 created, 0 updated, 3 unchanged/);
  assert.equal(taskFiles(other), taskFiles(root));
});

roundTrip('--format jsonl, --status and --with-events', async () => {
  const { root, ids } = await makeTree();
  const lines = (await svc(root, 'export', '--format', 'jsonl', '--status', 'ready,done', '--with-events')).stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  assert.equal(lines.map((task) => task.id).sort(), [ids[0], ids[2]].sort());
  const closed = lines.find((task) => task.id === ids[0]);
  assert.is(closed.path, `tasks/done/${ids[0]}.md`);
  assert.equal(
    closed.events.map((event: { type: string }) => event.type),
    ['task.created', 'task.transitioned', 'task.completed'],
  );
  const other = tempRoot();
  const file = join(other, 'tasks.jsonl');
  writeFileSync(file, `${lines.map((task) => JSON.stringify(task)).join('\n')}\n`);
  const out = await svc(other, 'import', 'svc', file, '--json');
  const report = JSON.parse(out.stdout);
  assert.is(report.summary.create, 2);
  assert.equal(report.items.find((item: { sourceId: string }) => item.sourceId === ids[2]).dangling, [ids[1]]);
  writeFileSync(
    join(root, 'tasks/ready/future-1.md'),
    '---\nschemaVersion: 2\nid: future-1\ntitle: "\\e[31mred"\n---\n',
  );
  const withNewer = await svc(root, 'export', '--format', 'jsonl', '--status', 'ready');
  assert.is(withNewer.code, 1, 'an export with files left out is not a success');
  assert.is(withNewer.stdout.trim().split('\n').length, 1);
  assert.match(
    withNewer.stderr,
    /^svc: left out tasks\/ready\/future-1\.md: .*schemaVersion 2 is newer than this svc understands \(it reads version 1\); upgrade svc/m,
  );
  assert.match(
    withNewer.stderr,
    /^svc: the export is incomplete: 1 invalid task file left out \(listed above\)\.\nhint: /m,
  );
  const bad = await svc(root, 'export', '--status', 'finished');
  assert.is(bad.code, 1);
  assert.match(bad.stderr, /unknown status "finished"/);
});

roundTrip(
  'an id clash gets a new id with dependencies rewritten; a malformed line is reported and the rest go in',
  async () => {
    const { root, ids } = await makeTree();
    const lines = (await svc(root, 'export', '--format', 'jsonl')).stdout.trim().split('\n');
    const other = tempRoot();
    const clash = await svc(other, 'task', 'create', 'Already here');
    const taken = clash.stdout.split('\n')[0]!;
    assert.is(taken, ids[0]);
    const file = join(other, 'in.jsonl');
    writeFileSync(
      file,
      `${lines[0]}\n{"not json\n${lines[1]}\n${lines[2]}\n{"status":"ready","frontmatter":{"title":"x"},"body":""}\n`,
    );
    const out = await svc(other, 'import', 'svc', file);
    assert.is(out.code, 1);
    assert.match(
      out.stdout,
      new RegExp(`created +${ids[0]} -> (TASK-\\S+): id clash: ${ids[0]} is taken in svc, so it gets a new id`),
    );
    assert.match(out.stdout, /unreadable .*in\.jsonl:2: not a JSON line/);
    assert.match(out.stdout, /unreadable .*in\.jsonl:5: .*schemaVersion is missing/);
    assert.match(out.stdout, /Summary: 3 created, .* 2 skipped \(invalid or unreadable\)/);
    const tasks = JSON.parse((await svc(other, 'task', 'list', '--all', '--json')).stdout) as {
      id: string;
      title: string;
    }[];
    assert.is(tasks.length, 4);
    assert.is(readFileSync(join(other, 'tasks/backlog', `${taken}.md`), 'utf8').includes('Already here'), true);
  },
);

roundTrip.run();
