import { statSync } from 'node:fs';

/** A value read from one file, kept until the file changes (one stat per use, no read). */
export interface FileCache<T> {
  get(): Promise<T>;
}

/**
 * Caches what `load` makes of `file`, reloading only when the file's inode, size or mtime moved
 * (or it appeared or went away). `load` gets the previous value, so it can keep it on a bad edit.
 */
export function createFileCache<T>(file: string, load: (previous: T | undefined) => Promise<T>): FileCache<T> {
  let stamp: string | undefined;
  let value: Promise<T> | undefined;
  return {
    get() {
      const st = statSync(file, { throwIfNoEntry: false });
      const next = st ? `${st.ino}:${st.size}:${st.mtimeMs}` : 'none';
      if (value && next === stamp) return value;
      stamp = next;
      const previous = value;
      value = (previous ?? Promise.resolve(undefined)).then(load, () => load(undefined));
      return value;
    },
  };
}
