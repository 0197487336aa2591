import { setTimeout as sleep } from 'node:timers/promises';
import { SvcError } from '../../core/errors.js';
import { stalenessBoundMs } from '../../fs/network-fs.js';

/** How many looks past the staleness bound may disagree before the task counts as changing too fast to judge. */
const MAX_LOOKS = 4;

/**
 * The copies of a task: those a first look found, how to look again, and the inode of a copy (undefined when unknown).
 */
export interface CopyLooks<T> {
  first: T[];
  look: () => Promise<T[]>;
  inoOf: (copy: T) => bigint | undefined;
}

/**
 * Confirms that a task really has the several copies a first look found (`first`), before any of
 * them is moved away. On a local disk a look is the truth and `first` is returned as it is. On a
 * network filesystem a client may still show the old name of a file another host just moved (a
 * hand `mv` from backlog/ to ready/, say) beside the new one, and even open it: such a ghost is no
 * copy. So the copies are looked at again (`look`, under the caller's task lock) once the
 * filesystem's staleness bound has passed, until two looks that far apart find the same names and
 * no two of them are one file (`inoOf`: the ghost and the real name share an inode, two copies
 * never do); a name that vanished meanwhile was a cached ghost. Returns what the last look found.
 */
export async function confirmCopies<T extends { path: string }>(
  dir: string,
  id: string,
  looks: CopyLooks<T>,
): Promise<T[]> {
  const { first, look, inoOf } = looks;
  const boundMs = stalenessBoundMs(dir);
  if (first.length < 2 || boundMs === 0) return first;
  let before = first;
  for (let round = 0; round < MAX_LOOKS; round++) {
    await sleep(boundMs);
    const after = await look();
    if (after.length < 2 || (isSameNames(before, after) && !isOneFile(after, inoOf))) return after;
    before = after;
  }
  const names = before.map((copy) => copy.path).join(', ');
  throw new SvcError(
    'locked',
    `${id} is still seen as ${names}, ` +
      (isOneFile(before, inoOf)
        ? "one file under several names (a network filesystem's cached old name)"
        : 'and kept changing') +
      `, after ${MAX_LOOKS} looks ${boundMs} ms apart.`,
    'Retry in a moment; if it stays, run `svc doctor` on a host that mounts the tree without caching.',
  );
}

// --- internal ---

function isSameNames(a: readonly { path: string }[], b: readonly { path: string }[]): boolean {
  const names = new Set(a.map((copy) => copy.path));
  return a.length === b.length && b.every((copy) => names.has(copy.path));
}

function isOneFile<T>(copies: readonly T[], inoOf: (copy: T) => bigint | undefined): boolean {
  const inodes = copies.map(inoOf).filter((ino): ino is bigint => ino !== undefined && ino !== 0n);
  return new Set(inodes).size < inodes.length;
}
