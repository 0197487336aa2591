import { mkdirSync, writeFileSync } from 'node:fs';
import { readFile, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { signalMarkedProcesses } from '../../fs/process-marker.js';
import { CHECK_MARKER, signalGroup } from './process.js';

/** `<pgid> <marker>`; synchronous, so the record is written before the check's end can remove it. */
export function writePid(file: string, pgid: number, marker: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${pgid} ${marker}\n`);
}

/**
 * Ends what a check a killed daemon left running: its process group and its marked processes (an older record holds the
 * group alone).
 */
export async function endLeftover(file: string): Promise<void> {
  const [group, marker] = (await readFile(file, 'utf8').catch(() => '')).trim().split(' ');
  const pgid = Number(group);
  if (Number.isInteger(pgid) && pgid > 1) signalGroup(pgid, 'SIGKILL');
  if (marker) signalMarkedProcesses(CHECK_MARKER, marker, { signal: 'SIGKILL' });
  await unlink(file).catch(() => undefined);
}
