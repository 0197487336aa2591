import type { LeaseOwners } from '../../net/protocol/status.js';
import type { IndexEntry } from '../../store/index/tasks.js';

/** Counts the in-progress tasks of the index by the host and pid their lease names. */
export function toLeaseOwners(inProgress: Iterable<IndexEntry>, self: { host: string; pid: number }): LeaseOwners {
  const out: LeaseOwners = { host: self.host, pid: self.pid, thisDaemon: 0, others: [], unowned: 0 };
  const others = new Map<string, { host: string; pid: number; inProgress: number }>();
  for (const { lease } of inProgress) {
    if (!lease?.host || !lease.pid) out.unowned++;
    else if (lease.host === self.host && lease.pid === self.pid) out.thisDaemon++;
    else {
      const key = `${lease.host} ${lease.pid}`;
      const seen = others.get(key) ?? { host: lease.host, pid: lease.pid, inProgress: 0 };
      seen.inProgress++;
      others.set(key, seen);
    }
  }
  out.others = [...others.values()].sort(
    (a, b) => b.inProgress - a.inProgress || (a.host < b.host ? -1 : a.host > b.host ? 1 : a.pid - b.pid),
  );
  return out;
}
