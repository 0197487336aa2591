import { statfsSync } from 'node:fs';
import { rename, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** `f_type` of FUSE filesystems (sshfs, rclone, s3fs and others), from statfs(2). */
const FUSE_SUPER_MAGIC = 0x65735546;
/** `f_type` of the network filesystems whose clients cache attributes: FUSE, NFS, SMB (two), Ceph. */
const NETWORK_MAGIC = new Set([FUSE_SUPER_MAGIC, 0x6969, 0xff534d42, 0xfe534d42, 0x00c36400]);

/**
 * True when reads in `dir` should bypass the kernel's page cache (`O_DIRECT`): on FUSE the kernel
 * caps a read at the file size it cached (1 s by default, 20 s behind sshfs's own cache), so a file
 * another host rewrote longer reads truncated; a direct read goes to the filesystem and sees it whole.
 * Asked once per directory.
 */
export function isDirectReadDir(dir: string): boolean {
  let direct = directDirs.get(dir);
  if (direct === undefined) {
    const type = toFsType(dir);
    direct = type === FUSE_SUPER_MAGIC;
    if (type !== null) directDirs.set(dir, direct); // a directory not there yet is asked again
  }
  return direct;
}

/**
 * True when `dir` is on a network filesystem whose client may answer `stat` from a cache (sshfs
 * keeps attributes 20 s by default, NFS up to `acdirmax`): what such a look says must be confirmed
 * by a fresh one before anything is taken away on its word. Asked once per directory.
 */
export function isNetworkDir(dir: string): boolean {
  let network = networkDirs.get(dir);
  if (network === undefined) {
    const type = toFsType(dir);
    network = type !== null && NETWORK_MAGIC.has(type);
    if (type !== null) networkDirs.set(dir, network); // a directory not there yet is asked again
  }
  return network;
}

/**
 * How long a network filesystem's client may go on showing a name that another host already
 * renamed or removed: GlusterFS's defaults keep names and attributes a second in the kernel and
 * a second more in its `md-cache` translator; NFS keeps them `actimeo` (1 s as docs/several-hosts.md asks);
 * sshfs's own 20 s cache does not count here, since a name it caches no longer opens. A second look
 * taken this long after the first sees no name the first saw only in a cache. 0 on a local disk.
 */
export function stalenessBoundMs(dir: string): number {
  return isNetworkDir(dir) ? NETWORK_STALENESS_MS : 0;
}

/**
 * `stalenessBoundMs` of a network filesystem: its caches' lifetimes with the options of docs/several-hosts.md, and a
 * margin.
 */
export const NETWORK_STALENESS_MS = 3_000;

/**
 * Makes a FUSE mount forget what it cached about `path` and everything under it, so the next look
 * at it goes to the server. sshfs (default options) answers `stat`, and the kernel `mkdir` and
 * `open(O_EXCL)`, from attributes it keeps 20 s: a lock another host released seconds ago still
 * "exists" here. sshfs drops every cached path that starts with a renamed path, so a throwaway
 * file is renamed onto a prefix of `path` and back. Best effort: errors are ignored. Asked at most
 * every `everyMs` per path.
 */
export async function forgetCached(path: string, everyMs = 500): Promise<void> {
  const now = Date.now();
  if ((forgotten.get(path) ?? 0) > now - everyMs) return;
  forgotten.set(path, now);
  if (forgotten.size > 10_000) forgotten.clear();
  const prefix = path.slice(0, -1);
  const temp = `${dirname(path)}/.forget-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
  try {
    await writeFile(temp, '');
    await rename(temp, prefix);
    await rename(prefix, temp);
  } catch {
    // another process forgot it at the same moment, or the directory is gone: nothing to do
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}

/** Remembers that `O_DIRECT` was refused in `dir` (an old kernel), so reads there go through the cache. */
export function refuseDirectReads(dir: string): void {
  directDirs.set(dir, false);
}

// --- internal ---

const directDirs = new Map<string, boolean>();
const networkDirs = new Map<string, boolean>();
const forgotten = new Map<string, number>();

function toFsType(dir: string): number | null {
  try {
    return statfsSync(dir).type;
  } catch {
    return null;
  }
}
