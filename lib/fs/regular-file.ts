import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readlinkSync,
  readSync,
  statSync,
  type BigIntStats,
} from 'node:fs';
import { lstat, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { hasCode, SvcError } from '../core/errors.js';
import { isDirectReadDir, isNetworkDir, refuseDirectReads } from './network-fs.js';

/** A file read whole, with the stat of the descriptor the bytes came from. */
export interface RegularRead {
  text: string;
  stat: BigIntStats;
}

/**
 * Reads a regular file, refusing anything else before it could block or flood: the entry is
 * looked at first (`lstat`), opened without following a symlink and without blocking (a FIFO
 * swapped in meanwhile cannot stall the thread), checked again on the descriptor, and read up to
 * `maxBytes` only. A FIFO, device, socket, directory or symlink is a `validation_error` that says
 * what it is; a larger file is `too_large`.
 */
export function readRegularFileSync(path: string, maxBytes: number): RegularRead {
  assertRegular(path, lstatSync(path, { bigint: true }));
  const direct = isDirectReadDir(dirname(path));
  let fd: number;
  try {
    fd = openSync(
      path,
      constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | (direct ? constants.O_DIRECT : 0),
    );
  } catch (err) {
    if (hasCode(err, 'ELOOP')) assertRegular(path, lstatSync(path, { bigint: true }));
    if (direct && hasCode(err, 'EINVAL')) {
      refuseDirectReads(dirname(path));
      return readRegularFileSync(path, maxBytes);
    }
    throw err;
  }
  try {
    const stat = fstatSync(fd, { bigint: true });
    assertRegular(path, stat);
    assertSize(path, stat.size, maxBytes);
    const text = direct ? readWhole(fd, path, maxBytes) : readAtMost(fd, path, maxBytes);
    closeQuietly(fd);
    return { text, stat };
  } catch (err) {
    closeQuietly(fd);
    throw err;
  }
}

/**
 * `readRegularFileSync`, the same checks, through the thread pool where the file is on a network
 * filesystem: there each call waits on the server, and a synchronous read would stall every other
 * request of the process meanwhile. On a local disk the synchronous read is faster and is used.
 */
export async function readRegularFile(path: string, maxBytes: number): Promise<RegularRead> {
  const dir = dirname(path);
  if (!isNetworkDir(dir)) return readRegularFileSync(path, maxBytes);
  assertRegular(path, await lstat(path, { bigint: true }));
  const direct = isDirectReadDir(dir);
  let handle;
  try {
    handle = await open(
      path,
      constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | (direct ? constants.O_DIRECT : 0),
    );
  } catch (err) {
    if (hasCode(err, 'ELOOP')) assertRegular(path, await lstat(path, { bigint: true }));
    if (direct && hasCode(err, 'EINVAL')) {
      refuseDirectReads(dir);
      return readRegularFileSync(path, maxBytes);
    }
    throw err;
  }
  try {
    const stat = await handle.stat({ bigint: true });
    assertRegular(path, stat);
    assertSize(path, stat.size, maxBytes);
    // One read asks for everything (see readWhole): a read that starts past a stale cached size returns nothing.
    const buffer = takeBuffer(maxBytes + 1);
    try {
      let total = 0;
      for (;;) {
        const { bytesRead } = await handle.read(buffer, total, maxBytes + 1 - total, null);
        if (bytesRead === 0) break;
        total += bytesRead;
        if (total > maxBytes) assertSize(path, BigInt(total), maxBytes);
      }
      return { text: buffer.toString('utf8', 0, total), stat };
    } finally {
      if (spareBuffers.length < 8) spareBuffers.push(buffer);
    }
  } finally {
    // A close can fail with ESTALE or ENOENT on a network filesystem when another host renamed over
    // the file meanwhile: what was read is whole, and a failed read has already thrown its error.
    await handle.close().catch(() => undefined);
  }
}

/**
 * Read buffers of the asynchronous reads, kept for the next ones (a fresh megabyte per read keeps the collector busy).
 */
const spareBuffers: Buffer[] = [];

function takeBuffer(size: number): Buffer {
  for (;;) {
    const spare = spareBuffers.pop();
    if (!spare) return Buffer.allocUnsafe(size);
    if (spare.length >= size) return spare;
  }
}

/** What kind of entry a stat describes, in words ("a FIFO (named pipe)"). */
export function describeEntry(stat: {
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  isFIFO(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
  isSocket(): boolean;
}): string {
  if (stat.isFile()) return 'a regular file';
  if (stat.isDirectory()) return 'a directory';
  if (stat.isSymbolicLink()) return 'a symbolic link';
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isSocket()) return 'a socket';
  return 'not a regular file';
}

// --- internal ---

/** The size of one read; a regular file that grows past its stat is caught by the `maxBytes` bound. */
const CHUNK = 64 * 1024;

function assertRegular(path: string, stat: BigIntStats): void {
  if (stat.isFile()) return;
  const what = stat.isSymbolicLink() ? describeLink(path) : describeEntry(stat);
  throw new SvcError(
    'validation_error',
    `${path}: ${what}, not a regular file; only regular files are read as tasks.`,
    'Replace it with a regular file (a copy, not a link) or move it out of tasks/.',
  );
}

function describeLink(path: string): string {
  let target: string;
  try {
    target = readlinkSync(path);
  } catch {
    return 'a symbolic link';
  }
  let pointsTo: string;
  try {
    pointsTo = describeEntry(statSync(path));
  } catch {
    return `a symbolic link to ${target} (dangling: nothing is there)`;
  }
  return `a symbolic link to ${target} (${pointsTo})`;
}

function assertSize(path: string, size: bigint, maxBytes: number): void {
  if (size > BigInt(maxBytes)) {
    throw new SvcError(
      'too_large',
      `${path}: file has ${size} bytes; the limit is ${maxBytes}.`,
      'Move large material out of the task file.',
    );
  }
}

/** Reads to the end, but never more than `maxBytes` (one byte more proves the file grew past it). */
function readAtMost(fd: number, path: string, maxBytes: number): string {
  // Into one buffer reused by every read: a fresh 64 KiB buffer per file (two, with the read that
  // finds the end) is memory outside the heap that a bulk load of 100,000 files leaves to the allocator.
  let buffer: Buffer = readBuffer;
  let total = 0;
  for (;;) {
    if (total === buffer.length) buffer = grow(buffer, Math.min(buffer.length * 2, maxBytes + 1));
    const read = readSync(fd, buffer, total, Math.min(buffer.length, maxBytes + 1) - total, null);
    if (read === 0) break;
    total += read;
    if (total > maxBytes) assertSize(path, BigInt(total), maxBytes);
  }
  return buffer.toString('utf8', 0, total);
}

/**
 * Reads a file opened with `O_DIRECT` on FUSE: one read asks for everything up to `maxBytes` + 1,
 * because a read that starts past the size the kernel cached returns nothing, however stale that size.
 */
function readWhole(fd: number, path: string, maxBytes: number): string {
  if (directBuffer.length < maxBytes + 1) directBuffer = Buffer.allocUnsafe(maxBytes + 1);
  let total = 0;
  for (;;) {
    const read = readSync(fd, directBuffer, total, maxBytes + 1 - total, null);
    if (read === 0) break;
    total += read;
    if (total > maxBytes) assertSize(path, BigInt(total), maxBytes);
  }
  return directBuffer.toString('utf8', 0, total);
}

/**
 * Closes a descriptor, ignoring a failure: on a network filesystem a close fails with ESTALE or
 * ENOENT when another host renamed over the file meanwhile; the bytes read before are whole, and
 * the descriptor is released by the kernel either way.
 */
function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // see above
  }
}

/**
 * Shared by the synchronous reads of files up to `CHUNK` bytes (one at a time on this thread); a larger file gets its
 * own.
 */
const readBuffer = Buffer.allocUnsafe(CHUNK);

function grow(buffer: Buffer, size: number): Buffer {
  const next = Buffer.allocUnsafe(size);
  buffer.copy(next);
  return next;
}

/** Shared by the synchronous direct reads (one at a time on this thread). */
let directBuffer = Buffer.alloc(0);
