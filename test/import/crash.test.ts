import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SVC_BIN } from '../helpers/agents.js';
import { svc } from '../helpers/cli.js';
import { readTasks } from '../helpers/import.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';

const crash = suite('import.applyImport (killed)');
crash.after.each(cleanRoots);

const COUNT = 400;

function sourceIds(root: string): string[] {
  return Object.values(readTasks(root)).map(
    ({ text }) => /\n  source:\n    system: github\n    id: '(\d+)'/.exec(text)?.[1] ?? '?',
  );
}

crash('an import killed midway, run again, creates every task exactly once', async () => {
  const root = tempRoot();
  const file = join(tempRoot(), 'issues.json');
  const issues = Array.from({ length: COUNT }, (_, i) => ({
    number: i + 1,
    title: `Issue ${i + 1}`,
    body: `Body ${i + 1}\n`,
    labels: [],
    state: i % 3 ? 'OPEN' : 'CLOSED',
    assignees: [],
    url: `https://example.com/${i + 1}`,
    createdAt: '2026-10-01T00:00:00Z',
  }));
  writeFileSync(file, JSON.stringify(issues));
  const child = spawn(process.execPath, [SVC_BIN, 'import', 'github', file], {
    env: { ...process.env, SVC_HOME: root },
    stdio: 'ignore',
  });
  const exited = new Promise((resolve) => child.on('close', resolve));
  const map = join(root, 'data/imports/github.json');
  await within(
    15_000,
    () => existsSync(map) && Object.keys(JSON.parse(readFileSync(map, 'utf8')).entries).length >= 20,
    'the import to be under way',
  );
  child.kill('SIGKILL');
  await exited;
  const before = sourceIds(root).length;
  assert.ok(before < COUNT, `the import finished before it was killed (${before} tasks)`);
  const again = await svc(root, 'import', 'github', file);
  assert.is(again.code, 0, again.stderr);
  const ids = sourceIds(root);
  assert.is(ids.length, COUNT);
  assert.is(new Set(ids).size, COUNT, 'a source id was imported twice');
  const third = await svc(root, 'import', 'github', file);
  assert.match(third.stdout, new RegExp(`Summary: 0 created, 0 updated, ${COUNT} unchanged`));
});

crash.run();
