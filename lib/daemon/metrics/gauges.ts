import { readdir } from 'node:fs/promises';
import { Counter, Gauge, type Registry } from 'prom-client';
import { STATUSES, type Status } from '../../core/status.js';
import type { Clock } from '../../core/time/clock.js';
import { dirSyncCount } from '../../fs/fsync-dir.js';
import type { IndexEntry } from '../../store/index/tasks.js';

/** What the gauges read at each scrape. */
export interface GaugeSource {
  clock: Clock;
  counts(): Record<Status, number>;
  invalid(): number;
  summaries(status: Status): Iterable<IndexEntry>;
  /** When a ready task landed there, as far as the daemon knows (ms). */
  readySince(id: string): number | undefined;
  /** The plugins attached now. */
  plugins(): readonly { id: string }[];
  /** `booting`, `plugin` or `standalone`. */
  mode(): string;
  /** Event lines waiting for a retry in this daemon's memory. */
  pendingEvents(): number;
  /** `data/events-spool/`: lines spooled by any process, not yet merged. */
  spoolDir: string;
}

/** Registers the gauges that are read from the index and the daemon at scrape time. */
export function registerGauges(registry: Registry, source: GaugeSource): void {
  const registers = [registry];
  const seconds = (ms: number) => Math.max(0, source.clock().getTime() - ms) / 1000;
  new Gauge({
    name: 'svc_tasks',
    help: 'Tasks per status in the index.',
    labelNames: ['status'],
    registers,
    collect() {
      const counts = source.counts();
      for (const status of STATUSES) this.set({ status }, counts[status]);
    },
  });
  new Gauge({
    name: 'svc_tasks_invalid',
    help: 'Files under tasks/ that are not valid tasks.',
    registers,
    collect() {
      this.set(source.invalid());
    },
  });
  new Gauge({
    name: 'svc_ready_oldest_age_seconds',
    help: 'How long the oldest ready task has been in ready (0 when none is).',
    registers,
    collect() {
      let oldest = Infinity;
      for (const entry of source.summaries('ready'))
        oldest = Math.min(oldest, source.readySince(entry.id) ?? (Date.parse(entry.updatedAt) || Infinity));
      this.set(oldest === Infinity ? 0 : seconds(oldest));
    },
  });
  // One pass over in-progress fills the three gauges; the first one registered collects, so a scrape reads them fresh.
  new Gauge({
    name: 'svc_in_progress_tasks',
    help: 'In-progress tasks by agent (the lease holder).',
    labelNames: ['agent'],
    registers,
    collect() {
      this.reset();
      oldest.reset();
      soonest.reset();
      for (const [agent, seen] of toAgents(source.summaries('in-progress'))) {
        this.set({ agent }, seen.count);
        if (seen.since !== Infinity) oldest.set({ agent }, seconds(seen.since));
        if (seen.expires !== Infinity) soonest.set({ agent }, (seen.expires - source.clock().getTime()) / 1000);
      }
    },
  });
  const oldest = new Gauge({
    name: 'svc_lease_oldest_age_seconds',
    help: 'Age of the oldest lease of each agent: time in progress since its last update, as SLA checks count it.',
    labelNames: ['agent'],
    registers,
  });
  const soonest = new Gauge({
    name: 'svc_lease_soonest_expiry_seconds',
    help: 'Time until the first lease of each agent expires (negative once past).',
    labelNames: ['agent'],
    registers,
  });
  new Gauge({
    name: 'svc_plugins_attached',
    help: 'OpenClaw plugins attached to this daemon now.',
    registers,
    collect() {
      this.set(source.plugins().length);
    },
  });
  new Gauge({
    name: 'svc_daemon_mode',
    help: 'The scheduler mode: 1 for the current one.',
    labelNames: ['mode'],
    registers,
    collect() {
      this.reset();
      this.set({ mode: source.mode() }, 1);
    },
  });
  new Gauge({
    name: 'svc_event_log_pending_lines',
    help: 'Event lines this daemon could not append yet (retried every second).',
    registers,
    collect() {
      this.set(source.pendingEvents());
    },
  });
  new Counter({
    name: 'svc_dir_fsyncs_total',
    help: 'Directory fsyncs this daemon made (commits share them: fewer than one a change under load).',
    registers,
    collect() {
      this.reset();
      this.inc(dirSyncCount());
    },
  });
  new Gauge({
    name: 'svc_event_spool_files',
    help: 'Files in data/events-spool/ not yet merged into the event log.',
    registers,
    async collect() {
      this.set(
        await readdir(source.spoolDir).then(
          (names) => names.filter((name) => !name.startsWith('.')).length,
          () => 0,
        ),
      );
    },
  });
}

// --- internal ---

/** In-progress tasks per agent: how many, the oldest update and the first lease expiry (ms). */
function toAgents(entries: Iterable<IndexEntry>): Map<string, { count: number; since: number; expires: number }> {
  const agents = new Map<string, { count: number; since: number; expires: number }>();
  for (const entry of entries) {
    const agent = entry.lease?.agent ?? entry.agent ?? 'none';
    const seen = agents.get(agent) ?? { count: 0, since: Infinity, expires: Infinity };
    seen.count += 1;
    seen.since = Math.min(seen.since, Date.parse(entry.updatedAt) || Infinity);
    seen.expires = Math.min(seen.expires, Date.parse(entry.lease?.expiresAt ?? '') || Infinity);
    agents.set(agent, seen);
  }
  return agents;
}
