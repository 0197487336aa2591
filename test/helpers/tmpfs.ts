import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { tempRoot } from './root.js';

const mounted: string[] = [];

/** Mounts a fresh tmpfs of `size` (for example `2m`) on a new temp directory and returns it (needs root). */
export function mountTmpfs(size = '2m'): string {
  const dir = tempRoot('svc-full-');
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir]);
  mounted.push(dir);
  return dir;
}

/** Unmounts every tmpfs mounted so far (lazily, so a process still holding a file cannot keep it). */
export function unmountAll(): void {
  while (mounted.length) {
    const dir = mounted.pop()!;
    try {
      execFileSync('umount', ['-l', dir]);
    } catch {
      // already gone
    }
  }
}

/** Fills the filesystem of `dir` to the last byte with the file `<dir>/filler`; returns a function that removes it. */
export function fillDisk(dir: string): () => void {
  const file = join(dir, 'filler');
  const fd = openSync(file, 'a');
  try {
    for (let chunk = 256 * 1024; chunk >= 1; ) {
      try {
        writeSync(fd, Buffer.alloc(chunk, 120));
      } catch {
        chunk = Math.floor(chunk / 2);
      }
    }
  } finally {
    closeSync(fd);
  }
  return () => rmSync(file, { force: true });
}
