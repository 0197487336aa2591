import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { toPaths } from '../../../lib/store/disk/paths.js';

// Breaking the event log on purpose, for the store's event tests (test/store/events/*.test.ts).
/** Makes every append to the event log fail (ENOTDIR), as a broken disk or a hand's mistake would. */
export function breakEvents(root: string): () => void {
  const { events } = toPaths(root);
  rmSync(events, { recursive: true, force: true });
  mkdirSync(toPaths(root).data, { recursive: true, mode: 0o700 });
  writeFileSync(events, 'not a directory\n');
  return () => {
    rmSync(events);
    mkdirSync(events, { mode: 0o700 });
  };
}

/** Makes every append fail (ENOTDIR) while keeping the lines already written aside, to put back. */
export function breakEventsKeeping(root: string): () => void {
  const { events } = toPaths(root);
  renameSync(events, `${events}.aside`);
  writeFileSync(events, 'not a directory\n');
  return () => {
    rmSync(events);
    renameSync(`${events}.aside`, events);
  };
}
