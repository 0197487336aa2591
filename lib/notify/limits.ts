import { readFileSync } from 'node:fs';
import { ensureDir, writeDurable } from '../fs/atomic.js';
import { dirname } from 'node:path';

/** A retry's delay: exponential from `initialMs` to `maxMs`, with full jitter (anything from 0 to that bound). */
export function backoffMs(attempts: number, retry: { initialMs: number; maxMs: number }, random = Math.random): number {
  const bound = Math.min(retry.maxMs, retry.initialMs * 2 ** Math.min(Math.max(attempts - 1, 0), 40));
  return Math.floor(random() * bound);
}

/** A small JSON record of the outbox kept durably (`disabled.json`, `rate-limits.json`), its writes one at a time. */
export interface Ledger<T> {
  get(key: string): T | undefined;
  set(key: string, value: T): Promise<void>;
  remove(key: string): Promise<void>;
  /** Removes every entry `drop` picks, in one write. */
  prune(drop: (value: T) => boolean): Promise<void>;
  entries(): Array<[string, T]>;
}

/** A ledger read at once from `file` (missing or unreadable: empty), every change written durably. */
export function openLedger<T>(file: string): Ledger<T> {
  const data: Record<string, T> = readRecord(file);
  let writing: Promise<void> = Promise.resolve();
  const save = () => {
    const text = `${JSON.stringify(data, null, 2)}\n`;
    writing = writing
      .catch(() => undefined)
      .then(async () => {
        await ensureDir(dirname(file), 0o700);
        await writeDurable(file, text);
      });
    return writing;
  };
  return {
    get: (key) => (Object.hasOwn(data, key) ? data[key] : undefined),
    set: (key, value) => {
      data[key] = value;
      return save();
    },
    remove: (key) => {
      if (!Object.hasOwn(data, key)) return Promise.resolve();
      delete data[key];
      return save();
    },
    prune: (drop) => {
      const gone = Object.keys(data).filter((key) => drop(data[key]!));
      if (!gone.length) return Promise.resolve();
      for (const key of gone) delete data[key];
      return save();
    },
    entries: () => Object.entries(data),
  };
}

/** Why a subscription was disabled: a 410 answered while the org chart had this key. */
export interface Disabled {
  chartKey: string;
  at: string;
  reason: string;
}

// --- internal ---

function readRecord<T>(file: string): Record<string, T> {
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, T>) : {};
  } catch {
    return {};
  }
}
