import { statfsSync } from 'node:fs';

/** `f_type` of FUSE filesystems (sshfs, rclone, s3fs and others), from statfs(2). */
const FUSE_SUPER_MAGIC = 0x65735546;

/**
 * True when reads in `dir` should bypass the kernel's page cache (`O_DIRECT`): on FUSE the kernel
 * caps a read at the file size it cached (1 s by default, 20 s behind sshfs's own cache), so a file
 * another host rewrote longer reads truncated; a direct read goes to the filesystem and sees it whole.
 * Asked once per directory.
 */
export function isDirectReadDir(dir: string): boolean {
  let direct = directDirs.get(dir);
  if (direct === undefined) {
    direct = toFsType(dir) === FUSE_SUPER_MAGIC;
    directDirs.set(dir, direct);
  }
  return direct;
}

/** Remembers that `O_DIRECT` was refused in `dir` (an old kernel), so reads there go through the cache. */
export function refuseDirectReads(dir: string): void {
  directDirs.set(dir, false);
}

// --- internal ---

const directDirs = new Map<string, boolean>();

function toFsType(dir: string): number | null {
  try {
    return statfsSync(dir).type;
  } catch {
    return null;
  }
}
