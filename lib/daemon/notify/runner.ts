import { describeError } from '../../core/errors.js';
import { createFileCache } from '../../engine/file-cache.js';
import { readEnvFile } from '../../fs/env-file.js';
import { createNotifier, type DeliveryOutcome, type Notifier, type OutboxDepth } from '../../notify/notifier.js';
import { listOutbox } from '../../notify/outbox.js';
import type { Paths } from '../../store/disk/paths.js';
import { loadOrg } from '../../org/org-chart.js';
import { toRateLimitMs } from '../../engine/alerts/sla.js';
import type { OrgChart, Subscription } from '../../org/schema.js';
import type { Store } from '../../store/commit/store.js';
import type { SvcEvent } from '../../store/events/log.js';
import type { IndexEntry } from '../../store/index/entry.js';
import type { NotifyStatus } from '../../net/protocol/status.js';
import { cursorAtEnd, loadCursor, saveCursor, type EventCursor } from './cursor.js';
import { readPastCursor } from './feed.js';
import { toChartKey, toSubscriptions } from './subscriptions.js';
import { toBoardUrl, toNotifyTask } from './task-context.js';

/** What the daemon's notifications are wired to. */
export interface NotifyWiringOptions {
  store: Store;
  /** The daemon's index: the task a notification is about. */
  taskOf: (id: string) => IndexEntry | undefined;
  /** The daemon's environment (with `data/daemon.env`, where a `secretEnv` is looked up). */
  env: Record<string, string | undefined>;
  log: (line: string) => void;
  /** The web board's port while it listens, else null. */
  webPort: () => number | null;
  onOutcome?: (outcome: DeliveryOutcome) => void;
  /** How often the event log is read past the cursor when nothing pokes it (500 ms). */
  pollMs?: number;
}

/** The daemon's notifications (docs/notifications.md, "Which daemon delivers"). */
export interface NotifyWiring {
  /** Reads the event log past the cursor now (this daemon recorded events). */
  poke(): void;
  /** The notifier in use: the one that delivers, else (no subscription) one that only moves files and sends tests. */
  notifier(): Notifier;
  /** The subscriptions of the chart as it is now (`aof.notify` and the watchdog's webhook). */
  subscriptions(): Promise<Subscription[]>;
  /** The outbox's depth as the notifier in use counts it (null: none yet). */
  depth(): OutboxDepth | null;
  /** What `/status` says of the notifications. */
  status(): NotifyStatus;
  close(): Promise<void>;
}

/**
 * Starts the notifications of a daemon (docs/notifications.md, "Which daemon delivers"): it reads every event of its
 * own event log (`data/events/`, which only this daemon and the commands of its `SVC_HOME` write) past the durable
 * cursor (`data/outbox/cursor.json`), offers each to its notifier with its task, advances the cursor only once the
 * outbox holds what the offer wrote, and delivers. Resolves once the cursor is read (or set at the log's end), so
 * what the daemon records after is notified.
 */
export async function startNotifyWiring(options: NotifyWiringOptions): Promise<NotifyWiring> {
  const { store, log } = options;
  const paths = store.paths;
  let chart: OrgChart | null = null;
  const org = createFileCache<OrgChart | null>(paths.orgChart, (previous) =>
    loadOrg(paths.root).catch(() => previous ?? null),
  );
  const subscriptions = (): Subscription[] => toSubscriptions(chart);
  const create = () =>
    createNotifier({
      paths,
      subscriptions,
      chartKey: () => toChartKey(subscriptions()),
      env: () => ({ ...readEnvFile(paths.envFile), ...options.env }),
      clock: store.clock,
      boardUrl: (id) => toBoardUrl(options.webPort(), id),
      // an SLA violation's repeats as quiet as its console alert's (`alerting.rateLimitMinutes` of its project)
      rateLimitMs: (_event, task) => toRateLimitMs(chart, task?.project ?? 'default'),
      ...(options.onOutcome ? { onOutcome: options.onOutcome } : {}),
      log,
    });
  let idle: Notifier | null = null; // not started: retries and tests while no subscription delivers
  let live: Notifier | null = null;
  let cursor: EventCursor | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  let closed = false;
  let checked = false; // the outbox was looked at for an event offered just before a crash
  const stopLive = async (why: string) => {
    const stopping = live;
    live = null;
    await stopping?.stop();
    if (stopping) log(why);
  };
  const pump = async () => {
    chart = await org.get();
    cursor ??= (await loadCursor(paths)) ?? (await startAtEnd());
    // without a subscription the cursor still moves on: one added later does not get the events of before
    if (subscriptions().length === 0) await stopLive('no subscription left in the org chart: nothing is delivered');
    else if (!live) {
      live = create();
      live.start();
    }
    const offered = live && !checked ? await offeredEventIds(paths) : undefined;
    checked = live !== null;
    cursor = await offerPast({ notifier: live, cursor, taskOf: options.taskOf, store, offered });
  };
  async function startAtEnd(): Promise<EventCursor> {
    const end = await cursorAtEnd(paths);
    await saveCursor(paths, end);
    log('notifications start at the end of the event log (no cursor yet)');
    return end;
  }
  const poke = () => {
    if (closed) return;
    if (running) return void (again = true);
    running = pump()
      .catch((err: unknown) => log(`warning: notifications: ${describeError(err)}`))
      .finally(() => {
        running = null;
        if (again && !closed) {
          again = false;
          poke();
        }
      });
  };
  // a cursor that cannot be read or written now is tried again by each read: the daemon starts either way
  cursor = await loadCursor(paths)
    .then((saved) => saved ?? startAtEnd())
    .catch((err: unknown) => {
      log(`warning: notifications: ${describeError(err)}`);
      return null;
    });
  const timer = setInterval(poke, options.pollMs ?? 500);
  poke();
  return {
    poke,
    notifier: () => live ?? (idle ??= create()),
    async subscriptions() {
      chart = await org.get();
      return subscriptions();
    },
    depth: () => (live ?? idle)?.depth() ?? null,
    status: () => ({ delivering: live !== null, subscriptions: (live ?? idle)?.status() ?? [] }),
    async close() {
      closed = true;
      clearInterval(timer);
      await running;
      await live?.stop();
      live = null;
    },
  };
}

// --- internal ---

interface OfferInput {
  /** None without a subscription: the cursor only moves on. */
  notifier: Notifier | null;
  cursor: EventCursor;
  taskOf: (id: string) => IndexEntry | undefined;
  store: Store;
  /** At the first read of a start: the events the outbox already holds, offered before a crash moved the cursor. */
  offered?: ReadonlySet<string> | undefined;
}

/** Offers each event past the cursor; the cursor is saved after each that wrote to the outbox, and at the end. */
async function offerPast({ notifier, cursor, taskOf, store, offered }: OfferInput): Promise<EventCursor> {
  const { events, ends } = await readPastCursor(store.paths, cursor);
  const next: EventCursor = { days: { ...cursor.days } };
  for (const fed of notifier ? events : []) {
    const event: SvcEvent & { id: string } = { ...fed.event, id: fed.id };
    const task = fed.event.taskId ? toNotifyTask(taskOf(fed.event.taskId)) : undefined;
    const written = offered?.has(fed.id) ? 0 : await notifier!.offer(event, task);
    next.days[fed.day] = fed.end;
    if (written > 0) await saveCursor(store.paths, next);
  }
  const moved = Object.entries(ends).some(([day, end]) => cursor.days[day] !== end);
  Object.assign(next.days, ends);
  if (moved) await saveCursor(store.paths, next);
  return next;
}

/**
 * The event ids of the deliveries in the outbox (pending and failed). The cursor is saved after each offer that
 * wrote, so only the event offered last before a crash can be read again: one the outbox still holds is not
 * offered twice (one delivered since is: a delivery is at least once, and keeps its event id).
 */
async function offeredEventIds(paths: Paths): Promise<Set<string>> {
  const entries = [...(await listOutbox(paths)), ...(await listOutbox(paths, { failed: true }))];
  return new Set(entries.flatMap((e) => e.notification.coalesced?.eventIds ?? [e.notification.event.id]));
}
