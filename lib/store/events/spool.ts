import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { readFile, readdir, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { hasCode } from '../../core/errors.js';
import { appendWhole } from '../../fs/append.js';
import { ensureDir, writeDurable } from '../../fs/atomic.js';
import { isProcessAlive } from '../../fs/process.js';
import { toPaths } from '../disk/paths.js';

/**
 * The event spool (docs/events.md): lines of committed changes that could not be appended to
 * `data/events/` are written to `data/events-spool/` instead, one file per failed append, and
 * appended to their day files later by whichever svc process merges the spool next. A process
 * that exits (a command, an MCP server, a stopping daemon) so loses no event of a change it made.
 */

/** A claim older than this is taken over whatever its owner: merging one file takes milliseconds. */
const STALE_CLAIM_MS = 5 * 60_000;

/** Writes event lines (JSON lines, each ending in a newline) to a new spool file; returns its path. */
export async function spoolEventLines(root: string, text: string): Promise<string> {
  const dir = toPaths(root).eventsSpool;
  await ensureDir(dir, 0o700);
  const file = join(
    dir,
    `${String(Date.now()).padStart(15, '0')}-${process.pid}-${randomBytes(4).toString('hex')}.jsonl`,
  );
  await writeDurable(file, text, 0o600);
  return file;
}

/**
 * Appends every spooled line to the day file of its timestamp, oldest spool file first, and
 * removes the spool files. Each file is first claimed by a rename, so two processes never merge
 * the same file; a claim left by a dead process (or older than five minutes) is taken over. A
 * line already in its day file (a merge cut off between the append and the unlink) is not
 * appended again. On a failure the claimed file is put back and the error thrown. Returns the
 * number of lines appended.
 */
export async function mergeEventSpool(root: string): Promise<number> {
  const paths = toPaths(root);
  let names: string[];
  try {
    names = await readdir(paths.eventsSpool);
  } catch (err) {
    if (hasCode(err, 'ENOENT')) return 0;
    throw err;
  }
  let appended = 0;
  for (const name of names.sort()) {
    const spooled = parseName(name);
    if (!spooled || !(await isClaimable(join(paths.eventsSpool, name), spooled))) continue;
    const { original } = spooled;
    const claimed = join(paths.eventsSpool, `${original}.${hostname()}-${process.pid}.merging`);
    try {
      await rename(join(paths.eventsSpool, name), claimed);
    } catch (err) {
      if (hasCode(err, 'ENOENT')) continue; // another process claimed it first
      throw err;
    }
    try {
      appended += await appendSpooled(root, await readFile(claimed, 'utf8'));
      await unlink(claimed);
    } catch (err) {
      await rename(claimed, join(paths.eventsSpool, original)).catch(() => undefined);
      throw err;
    }
  }
  return appended;
}

/** How many spool files (claims of a merge in progress included) wait in `data/events-spool/`. */
export async function countSpooled(root: string): Promise<number> {
  const names = await readdir(toPaths(root).eventsSpool).catch(() => [] as string[]);
  return names.filter((name) => parseName(name) !== undefined).length;
}

// --- internal ---

/** A spool file's own name, and for a claim of one the claiming host and pid; undefined for anything else. */
interface SpoolName {
  original: string;
  claim?: { host: string; pid: number };
}

function parseName(name: string): SpoolName | undefined {
  const match = /^(\d+-\d+-[0-9a-f]+\.jsonl)(?:\.(.+)-(\d+)\.merging)?$/.exec(name);
  if (!match) return undefined;
  return match[2] === undefined
    ? { original: match[1]! }
    : { original: match[1]!, claim: { host: match[2], pid: Number(match[3]) } };
}

/** A spool file is claimable; a claim is when its process is gone (on this host) or it is stale. */
async function isClaimable(path: string, { claim }: SpoolName): Promise<boolean> {
  if (!claim) return true;
  if (claim.host === hostname() && !isProcessAlive(claim.pid)) return true; // a zombie counts as dead
  try {
    return Date.now() - (await stat(path)).ctimeMs > STALE_CLAIM_MS;
  } catch {
    return false;
  }
}

/** Appends the lines of one spool file to their day files, skipping lines already there. */
async function appendSpooled(root: string, text: string): Promise<number> {
  const paths = toPaths(root);
  const byDay = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const day = toDay(line);
    if (!day) continue; // a blank or torn line
    byDay.set(day, [...(byDay.get(day) ?? []), line]);
  }
  let appended = 0;
  for (const [day, lines] of byDay) {
    const file = paths.eventFile(day);
    const present = new Set(
      (
        await readFile(file, 'utf8').catch((err: unknown) => {
          if (hasCode(err, 'ENOENT')) return '';
          throw err;
        })
      ).split('\n'),
    );
    const missing = lines.filter((line) => !present.has(line));
    if (missing.length === 0) continue;
    await ensureDir(paths.events, 0o700);
    await appendWhole(file, `${missing.join('\n')}\n`);
    appended += missing.length;
  }
  return appended;
}

/** The UTC day of an event line's timestamp, or undefined when the line is not an event. */
function toDay(line: string): string | undefined {
  if (!line.trim()) return undefined;
  try {
    const { timestamp } = JSON.parse(line) as { timestamp?: unknown };
    return typeof timestamp === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(timestamp) ? timestamp.slice(0, 10) : undefined;
  } catch {
    return undefined;
  }
}
