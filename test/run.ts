// Runs every uvu suite under test/ in one process and closes with the line `N passed, M failed`.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const pattern = process.argv[2] ?? '\\.test\\.ts$';
const child = spawn(process.execPath, ['--import', 'tsx', 'node_modules/uvu/bin.js', 'test', pattern, '-i', 'helpers'], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'inherit'],
});
let tail = '';
child.stdout.on('data', (chunk: Buffer) => {
  process.stdout.write(chunk);
  tail = (tail + chunk.toString()).slice(-4000);
});
child.on('close', (code) => {
  const plain = tail.replace(/\u001b\[[0-9;]*m/g, '');
  const count = (label: string) => Number(new RegExp(`${label}:\\s+(\\d+)`).exec(plain)?.[1] ?? 0);
  const total = count('Total');
  const passed = count('Passed');
  const skipped = count('Skipped');
  const finished = /Total:\s+\d+/.test(plain);
  // uvu exits 0 without totals when a test awaits a promise that nothing will settle: that is a failure.
  if (!finished) process.stdout.write('\nthe test run ended before reporting its totals: a test awaited a promise that never settled\n');
  const failed = finished ? Math.max(total - passed - skipped, code === 0 ? 0 : 1) : 1;
  process.stdout.write(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
  process.exitCode = code === 0 && failed === 0 && finished ? 0 : 1;
});
