import { closeSync, constants, fstatSync, ftruncateSync, openSync, readSync, writeSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { hasCode } from '../core/errors.js';
import { isNetworkDir } from './network-fs.js';
import { toWriteError } from './write-error.js';

/**
 * Appends `text` to `path` (created when missing; a missing directory throws ENOENT) all or
 * nothing: a write cut short (a full disk takes what fits, then fails) is cut back off the end of
 * the file, so the next append does not continue a torn line. A full disk is `no_space` naming `path`.
 */
export async function appendWhole(path: string, text: string): Promise<void> {
  appends++;
  const bytes = Buffer.from(text, 'utf8');
  if (!isNetworkDir(dirname(path)) && appendLocal(path, bytes)) return;
  const handle = await open(path, 'a');
  let written = 0;
  try {
    while (written < bytes.length) written += (await handle.write(bytes, written, bytes.length - written)).bytesWritten;
  } catch (err) {
    if (written > 0) await cutTail(path, handle, bytes.subarray(0, written));
    throw toWriteError(err, path);
  } finally {
    await handle.close();
  }
}

/** How many appends this process made since it started (tests count an event log's writes with it). */
export function appendCount(): number {
  return appends;
}

// --- internal ---

let appends = 0;

/**
 * `appendWhole` on a local disk: synchronous calls, each microseconds there (a thread-pool round
 * trip costs more); a torn append is cut back the same way. Only into a regular file: the open
 * does not block (a FIFO without a reader fails it, ENXIO), and anything but a regular file is
 * left to the asynchronous append, which waits in the thread pool, not on the event loop: false
 * then.
 */
function appendLocal(path: string, bytes: Buffer): boolean {
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NONBLOCK, 0o666);
  } catch (err) {
    if (hasCode(err, 'ENXIO')) return false;
    throw toWriteError(err, path);
  }
  if (!fstatSync(fd).isFile()) {
    closeSync(fd);
    return false;
  }
  let written = 0;
  try {
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
  } catch (err) {
    if (written > 0) cutTailSync(path, fd, bytes.subarray(0, written));
    throw toWriteError(err, path);
  } finally {
    closeSync(fd);
  }
  return true;
}

function cutTailSync(path: string, fd: number, tail: Buffer): void {
  try {
    const start = fstatSync(fd).size - tail.length;
    if (start < 0) return;
    const found = Buffer.alloc(tail.length);
    const reader = openSync(path, 'r'); // a second descriptor: see cutTail
    try {
      readSync(reader, found, 0, tail.length, start);
    } finally {
      closeSync(reader);
    }
    if (found.equals(tail)) ftruncateSync(fd, start);
  } catch {
    // the torn line stays; readers skip a line that does not parse
  }
}

/** Removes `tail` from the end of the file when the file still ends with exactly it (no other append came after). */
async function cutTail(path: string, handle: FileHandle, tail: Buffer): Promise<void> {
  try {
    const { size } = await handle.stat();
    const start = size - tail.length;
    if (start < 0) return;
    const found = Buffer.alloc(tail.length);
    // Read through a second descriptor: the append's own is write-only, as a log's should be (a
    // FIFO opened for reading and writing would swallow the line instead of waiting for a reader).
    const reader = await open(path, 'r');
    try {
      await reader.read(found, 0, tail.length, start);
    } finally {
      await reader.close();
    }
    if (found.equals(tail)) await handle.truncate(start);
  } catch {
    // the torn line stays; readers skip a line that does not parse
  }
}
