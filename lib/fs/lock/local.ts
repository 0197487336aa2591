import * as fs from 'node:fs';
import { join } from 'node:path';

/**
 * On a local disk the lock's own calls (make it and record the owner, look at it, remove it) are
 * synchronous: each costs microseconds there, less than a thread-pool round trip, and
 * proper-lockfile takes callbacks called at once (its own `lockSync` does so). A lock held by
 * another process is still looked at asynchronously (statForeign in owner-fs.ts). `locks.held` is the set of
 * locks this process holds; `locks.owner` is what the lock records (`<host> <pid>`).
 */
export function mkdirLocal(
  path: string,
  locks: { owner: string; held: Set<string> },
  callback: (err: NodeJS.ErrnoException | null) => void,
): void {
  const { owner, held } = locks;
  try {
    fs.mkdirSync(path);
  } catch (err) {
    return callback(err as NodeJS.ErrnoException);
  }
  held.add(path);
  try {
    fs.symlinkSync(owner, join(path, 'owner'));
  } catch (err) {
    // A lock always names its owner here (an ownerless one is a dead writer's: see statForeign in owner-fs.ts).
    held.delete(path);
    fs.rmSync(path, { recursive: true, force: true });
    return callback(err as NodeJS.ErrnoException);
  }
  callback(null);
}

export function rmdirLocal(path: string, callback: (err: NodeJS.ErrnoException | null) => void): void {
  try {
    fs.unlinkSync(join(path, 'owner'));
  } catch {
    // an ownerless lock (its holder died before recording itself) is removed all the same
  }
  syncCall(
    () => fs.rmdirSync(path),
    (err) =>
      err && err.code === 'ENOTEMPTY'
        ? syncCall(() => fs.rmSync(path, { recursive: true, force: true }), callback)
        : callback(err),
  );
}

export function syncCall<T>(fn: () => T, callback: (err: NodeJS.ErrnoException | null, value?: T) => void): void {
  let value: T;
  try {
    value = fn();
  } catch (err) {
    return callback(err as NodeJS.ErrnoException);
  }
  callback(null, value);
}
