import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { promisify } from 'node:util';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readEvents } from '../../lib/store/events.js';
import { SVC_BIN } from '../helpers/agents.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

const run = promisify(execFile);
const quickstart = suite('e2e.quickstart');
quickstart.after.each(cleanRoots);

quickstart('svc quickstart runs the sample to done with no gateway, then stops its daemon', async () => {
  const root = tempRoot();
  const { stdout } = await run(process.execPath, [SVC_BIN, 'quickstart', '--timeout', '90'], { env: { ...process.env, SVC_HOME: root }, timeout: 120_000 });
  assert.match(stdout, /svc daemon started \(pid \d+\)/);
  assert.match(stdout, /All 4 tasks are done\./);
  assert.match(stdout, /Done \(4\)/);
  assert.match(stdout, /svc daemon stopped/);
  assert.equal(readdirSync(`${root}/tasks/done`).filter((n) => n.endsWith('.md')).length, 4);
  assert.not.ok(existsSync(`${root}/data/daemon.pid`), 'daemon stopped');
  const agents = (await readEvents(root, { type: 'task.dispatched' })).map((e) => e.payload.agent);
  assert.equal(agents.filter((a) => a === 'reviewer').length, 3, 'each gated task reviewed once');
  assert.equal((await readEvents(root, { type: 'gate.transition' })).length, 6);
});

quickstart('refuses to overwrite an org chart that is not the quickstart\'s', async () => {
  const root = tempRoot();
  const { mkdirSync, writeFileSync } = await import('node:fs');
  mkdirSync(`${root}/org`, { recursive: true });
  writeFileSync(`${root}/org/org-chart.yaml`, 'schemaVersion: 1\nagents: []\n');
  const failed = await run(process.execPath, [SVC_BIN, 'quickstart'], { env: { ...process.env, SVC_HOME: root } }).then(() => null, (err: { code: number; stderr: string }) => err);
  assert.is(failed?.code, 1);
  assert.match(failed!.stderr, /already exists and is not the quickstart's/);
  assert.match(failed!.stderr, /hint: Run the quickstart in a fresh home/);
});

quickstart.run();
