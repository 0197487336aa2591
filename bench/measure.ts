import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** One line of the bench table. */
export interface Row {
  section: string;
  metric: string;
  value: string;
  note?: string;
}

/** What every bench section gets. */
export interface BenchOptions {
  quick: boolean;
  /** The package root (where bin/svc.js is). */
  repo: string;
  /** A scratch directory for this run, removed afterwards. */
  tmp: string;
  /** Progress lines (stderr), so the table on stdout stays clean. */
  log(text: string): void;
}

/** The median of some numbers. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Milliseconds `fn` takes. */
export async function timeMs(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

/** Runs `fn(0..ops-1)` in `width` lanes, each lane one call at a time (lane k takes k, k+width, ...). */
export async function inParallel(ops: number, width: number, fn: (i: number) => Promise<unknown>): Promise<void> {
  await Promise.all(
    Array.from({ length: width }, async (_, lane) => {
      for (let i = lane; i < ops; i += width) await fn(i);
    }),
  );
}

/** Runs a command to its end with stdout discarded (like `> /dev/null`); resolves with its exit code. */
export function runQuiet(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', 'ignore', 'ignore'], env });
    child.on('error', reject);
    child.on('close', (code) => resolve(code ?? -1));
  });
}

/** Formats a rate or a duration for the table. */
export function formatNumber(value: number, unit: string): string {
  const digits = value >= 100 ? 0 : value >= 10 ? 1 : 2;
  return `${value.toFixed(digits)} ${unit}`;
}

/** Prints rows as an aligned table, one section after another. */
export function printTable(rows: readonly Row[], write: (text: string) => void): void {
  const head: Row = { section: 'section', metric: 'metric', value: 'value', note: 'note' };
  const all = [head, ...rows];
  const width = (key: 'section' | 'metric' | 'value') => Math.max(...all.map((row) => row[key].length));
  const [s, m, v] = [width('section'), width('metric'), width('value')];
  for (const [i, row] of all.entries()) {
    write(
      `${row.section.padEnd(s)}  ${row.metric.padEnd(m)}  ${row.value.padStart(v)}  ${row.note ?? ''}`.trimEnd() + '\n',
    );
    if (i === 0) write(`${'-'.repeat(s)}  ${'-'.repeat(m)}  ${'-'.repeat(v)}  ${'-'.repeat(4)}\n`);
  }
}

/** Resolves once `fn` resolves truthy (a rejection counts as not yet), asked every 20 ms; throws past `timeoutMs`. */
export async function until(fn: () => Promise<unknown>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await fn().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`bench: condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Resident memory of a process in MB (Linux /proc; elsewhere `ps`). */
export function rssMb(pid: number): number {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    if (kb) return kb / 1024;
  } catch {
    // not Linux
  }
  return Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim()) / 1024;
}
