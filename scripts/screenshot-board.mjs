// `node scripts/screenshot-board.mjs [out.png]` (after `npm run build`): writes docs/board.png, the web
// board of a small sample tree, taken by headless Chromium (/usr/bin/chromium, or SVC_CHROMIUM) from a
// real daemon in a temp folder. Rerun it when the board's look changes.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { startDaemon } from '../dist/daemon/daemon.js';
import { toPaths } from '../dist/store/disk/paths.js';
import { initTree } from '../dist/store/commit/store.js';
import { renderTask } from '../dist/store/disk/task-file.js';
import { TOOLS } from '../dist/tools/index.js';
import { OPERATOR_TOOLS } from '../dist/tools/operator.js';
import { startWebBoard } from '../dist/web/server.js';

const repo = new URL('..', import.meta.url).pathname;
const out = process.argv[2] ?? join(repo, 'docs/board.png');
const root = mkdtempSync(join(tmpdir(), 'svc-shot-'));
const paths = toPaths(root);
await initTree(paths);
const now = Date.now();
const at = (minutes) => new Date(now + minutes * 60_000).toISOString();
const SAMPLE = [
  ['backlog', 'Write the release notes for 0.2', 'low', 'writer', {}],
  ['backlog', 'Benchmark the index at 100k tasks', 'normal', 'dev', { dependsOn: ['TASK-2026-11-26-006'] }],
  [
    'ready',
    'Add retries to the gateway client',
    'high',
    'dev',
    { metadata: { dispatchFailures: 1, nextAttemptAt: at(2) } },
  ],
  ['ready', 'Review the lease expiry path', 'normal', 'reviewer', {}],
  [
    'in-progress',
    'Fix the flaky watcher test on macOS',
    'critical',
    'dev',
    { lease: { agent: 'dev', expiresAt: at(24), sessionId: 's-1' } },
  ],
  [
    'in-progress',
    'Draft docs for the web board',
    'normal',
    'writer',
    { lease: { agent: 'writer', expiresAt: at(9), sessionId: 's-2' } },
  ],
  ['blocked', 'Upgrade the YAML parser', 'normal', 'dev', {}],
  ['done', 'Split the README into docs/', 'normal', 'writer', {}],
  ['done', 'Index done tasks in the background', 'high', 'dev', {}],
  ['deadletter', 'Import the legacy tracker export', 'normal', 'importer', { metadata: { dispatchFailures: 3 } }],
];
SAMPLE.forEach(([status, title, priority, agent, extra], i) => {
  const id = `TASK-2026-11-26-${String(i + 1).padStart(3, '0')}`;
  const stamp = at(-60 + i);
  const task = {
    schemaVersion: 1,
    id,
    project: 'svc',
    title,
    status,
    priority,
    routing: { agent },
    createdAt: stamp,
    updatedAt: stamp,
    lastTransitionAt: stamp,
    createdBy: 'operator',
    dependsOn: [],
    metadata: {},
    ...extra,
  };
  writeFileSync(paths.taskFile(status, id), renderTask(task, `## Goal\n\n${title}.\n`));
});
const daemon = await startDaemon({
  root,
  tools: [...TOOLS, ...OPERATOR_TOOLS],
  web: startWebBoard,
  schedule: false,
  stderr: () => undefined,
});
const browser = await chromium.launch({
  executablePath: process.env.SVC_CHROMIUM ?? '/usr/bin/chromium',
  args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
});
try {
  const reply = await fetchAddress(paths);
  const page = await browser.newPage({ viewport: { width: 1500, height: 620 }, deviceScaleFactor: 1 });
  await page.goto(reply.url);
  await page.waitForSelector('[data-card="TASK-2026-11-26-010"]');
  await page.screenshot({ path: out });
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
  await daemon.close();
  rmSync(root, { recursive: true, force: true });
}

async function fetchAddress(paths) {
  const { requestDaemon } = await import('../dist/daemon/instance/client.js');
  const reply = await requestDaemon(paths.socket, { method: 'POST', path: '/v1/web', body: {} });
  return reply.body;
}
