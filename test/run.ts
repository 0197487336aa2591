// Runs every uvu suite under test/ in one process and closes with the line `N passed, M failed`.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const pattern = process.argv[2] ?? '\\.test\\.ts$';
const child = spawn(
  process.execPath,
  ['--import', 'tsx', 'node_modules/uvu/bin.js', 'test', pattern, '-i', 'helpers'],
  {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
let tail = '';
const failures: string[] = [];
let pending = '';
child.stdout.on('data', (chunk: Buffer) => {
  process.stdout.write(chunk);
  tail = (tail + chunk.toString()).slice(-4000);
  pending += chunk.toString();
  const lines = pending.split('\n');
  pending = lines.pop() ?? '';
  collectFailures(lines);
});

// uvu prints a failure's details right after its file's suites; a long run scrolls them far
// away from the totals, so the closing lines repeat each one (header, message, first lines).
let open: string[] | undefined;
let blanks = 0;
let file = '';
function collectFailures(lines: string[]): void {
  for (const raw of lines) {
    const line = raw.replace(/\u001b\[[0-9;]*m/g, '');
    if (/^\S+\.test\.ts$/.test(line)) file = line;
    if (/^\s+FAIL\s/.test(line)) {
      open = [`${line}  (${file})`];
      blanks = 0;
      failures.push('');
    } else if (open) {
      blanks = line.trim() === '' ? blanks + 1 : 0;
      if (blanks >= 2 || open.length >= 25) open = undefined;
      else if (blanks === 0) open.push(line);
    }
    if (open) failures[failures.length - 1] = open.join('\n');
  }
}
child.on('close', (code) => {
  collectFailures([pending, '']);
  if (failures.length) process.stdout.write(`\nfailures (repeated from above):\n${failures.join('\n\n')}\n`);
  const plain = tail.replace(/\u001b\[[0-9;]*m/g, '');
  const count = (label: string) => Number(new RegExp(`${label}:\\s+(\\d+)`).exec(plain)?.[1] ?? 0);
  const total = count('Total');
  const passed = count('Passed');
  const skipped = count('Skipped');
  const finished = /Total:\s+\d+/.test(plain);
  // uvu exits 0 without totals when a test awaits a promise that nothing will settle: that is a failure.
  if (!finished)
    process.stdout.write(
      '\nthe test run ended before reporting its totals: a test awaited a promise that never settled\n',
    );
  const failed = finished ? Math.max(total - passed - skipped, code === 0 ? 0 : 1) : 1;
  process.stdout.write(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
  process.exitCode = code === 0 && failed === 0 && finished ? 0 : 1;
});
