import { existsSync, readFileSync } from 'node:fs';
import { readRegularFileSync } from '../../lib/fs/regular-file.js';
import { toPaths } from '../../lib/store/disk/paths.js';
import type { Host } from '../helpers/two-daemons.js';
import { readEvents, type Event } from '../helpers/two-daemons-checks.js';

// What the duties test (gluster-duties.test.ts) reads of its two daemons: the murmur reviews, SLA and
// OVERDUE alerts each logged, what they logged about duties, and who holds a duty's file.

/** The murmur reviews created by either daemon, oldest first, each with its host's name. */
export function created(hosts: Host[]): (Event & { host: string })[] {
  return hosts
    .flatMap((host) =>
      readEvents(host.home)
        .filter(
          (event) => event.type === 'murmur.review' && (event.payload as { action?: string }).action === 'created',
        )
        .map((event) => ({ ...event, host: host.name })),
    )
    .sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp));
}

/** The SLA alerts for `taskId` by either daemon, oldest first. */
export function alerts(hosts: Host[], taskId: string): Event[] {
  return hosts
    .flatMap((host) =>
      readEvents(host.home).filter((event) => event.type === 'sla.violation' && event.taskId === taskId),
    )
    .sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp));
}

/** The OVERDUE alerts for `taskId` by either daemon. */
export function overdue(hosts: Host[], taskId: string): Event[] {
  return hosts.flatMap((host) =>
    readEvents(host.home).filter((event) => event.type === 'task.overdue' && event.taskId === taskId),
  );
}

/** What the daemons logged about duties, murmur and SLA (for a failure's message). */
export function dutyLines(hosts: Host[]): string {
  return hosts
    .map(
      (host) =>
        `${host.name}:\n${readFileSync(toPaths(host.home).daemonLog, 'utf8')
          .split('\n')
          .filter((line) => /duty|Murmur|SLA/.test(line))
          .slice(-20)
          .join('\n')}`,
    )
    .join('\n');
}

/** `<host> <pid>` of the owner of `duty` in its file under `tasks/.duties/`, or null while none or while it is replaced. */
export function ownerOf(tasks: string, duty: string): string | null {
  const file = `${tasks}/.duties/${duty}.json`;
  if (!existsSync(file)) return null;
  try {
    // Not readFileSync(file, 'utf8'): Node 20 aborts the process when a close on the mount fails.
    const { owner } = JSON.parse(readRegularFileSync(file, 1 << 20).text) as { owner: { host: string; pid: number } };
    return `${owner.host} ${owner.pid}`;
  } catch {
    return null; // read while replaced
  }
}
