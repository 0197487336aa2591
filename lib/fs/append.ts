import { open, type FileHandle } from 'node:fs/promises';
import { toWriteError } from './write-error.js';

/**
 * Appends `text` to `path` (created when missing; a missing directory throws ENOENT) all or
 * nothing: a write cut short (a full disk takes what fits, then fails) is cut back off the end of
 * the file, so the next append does not continue a torn line. A full disk is `no_space` naming `path`.
 */
export async function appendWhole(path: string, text: string): Promise<void> {
  const bytes = Buffer.from(text, 'utf8');
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

// --- internal ---

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
