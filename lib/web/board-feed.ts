import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { isTerminal, STATUSES, type Status } from '../core/status.js';
import type { IndexEntry } from '../store/task-index.js';
import type { WebMount } from '../daemon/web-port.js';
import { readEvents } from '../store/events.js';
import { selectSnapshot, toCard, type Card } from './cards.js';

/** A batch of board changes with its sequence number (docs/web-board.md, "Live updates"). */
export interface BoardChange {
  seq: number;
  upserts: Card[];
  removed: string[];
  counts: Record<Status, number>;
}

/** The whole board at a sequence number: what a page starts from, or falls back to. */
export interface BoardSnapshot {
  epoch: string;
  seq: number;
  cards: Card[];
  counts: Record<Status, number>;
}

/** The board's change stream: the daemon's change feed turned into card changes with a monotonic sequence. */
export interface BoardFeed {
  /** Names this feed (one per daemon start): a sequence means nothing under another epoch. */
  epoch: string;
  snapshot(): BoardSnapshot;
  /** The changes after `seq`, or null when they are no longer kept (the page then takes a snapshot). */
  since(seq: number): BoardChange[] | null;
  subscribe(listener: (change: BoardChange) => void): () => void;
  close(): void;
}

/** How many change batches are kept for pages that reconnect. */
const KEPT = 2000;
/** Changes arriving within this are sent as one batch. */
const COALESCE_MS = 15;
/** The statuses compared on every change; done and cancelled only when their counts move, or this often. */
const SCANNED: readonly Status[] = ['backlog', 'ready', 'in-progress', 'blocked', 'deadletter'];
const FULL_EVERY_MS = 2000;
/** How often the day's SLA violations are read again. */
const SLA_EVERY_MS = 30_000;

/** Starts following `mount.changes`: each change of the index becomes a batch of cards, diffed by status, file stamp and open dependencies. */
export function startBoardFeed(mount: WebMount): BoardFeed {
  const epoch = randomBytes(6).toString('hex');
  const startedAt = mount.clock().toISOString();
  const seen = new Map<string, string>();
  const kept: BoardChange[] = [];
  const listeners = new Set<(change: BoardChange) => void>();
  let seq = 0;
  let slaIds = new Set<string>();
  const stop = new AbortController();
  // What a card is drawn from: its file (status and stamp), its open dependencies, its SLA mark.
  const keyOf = (entry: IndexEntry) => `${entry.status}|${entry.stamp}|${slaIds.has(entry.id) ? 1 : 0}|${entry.dependsOn.length ? entry.dependsOn.map((dep) => mount.index.get(dep)?.status).join(',') : ''}`;
  let lastFull = 0;
  let lastTerminal = '';
  const diff = () => {
    const counts = mount.index.counts();
    // Done and cancelled hold most tasks: they are compared when their counts move, else every FULL_EVERY_MS.
    const terminal = `${counts.done}|${counts.cancelled}`;
    const full = terminal !== lastTerminal || Date.now() - lastFull >= FULL_EVERY_MS;
    if (full) ((lastFull = Date.now()), (lastTerminal = terminal));
    const scanned = full ? STATUSES : SCANNED;
    const upserts: Card[] = [];
    const present = new Set<string>();
    for (const status of scanned) {
      for (const entry of mount.index.summaries(status)) {
        present.add(entry.id);
        const key = keyOf(entry);
        const before = seen.get(entry.id);
        if (before === key) continue;
        seen.set(entry.id, key);
        // A done or cancelled task read by the background load is history, not news: no event.
        if (before === undefined && isTerminal(entry.status) && entry.updatedAt < startedAt) continue;
        upserts.push(toCard(entry, mount.index, slaIds));
      }
    }
    const removed = [...seen].filter(([id, key]) => !present.has(id) && (full || SCANNED.includes(key.slice(0, key.indexOf('|')) as Status))).map(([id]) => id);
    for (const id of removed) seen.delete(id);
    publish(upserts, removed, counts);
    return full;
  };
  const publish = (upserts: Card[], removed: string[], counts: Record<Status, number>) => {
    if (!upserts.length && !removed.length) return;
    const change: BoardChange = { seq: ++seq, upserts, removed, counts };
    kept.push(change);
    if (kept.length > KEPT) kept.shift();
    for (const listener of listeners) listener(change);
  };
  for (const entry of mount.index.summaries()) seen.set(entry.id, keyOf(entry));
  void follow(mount, stop.signal, diff);
  // A page that opened while done and cancelled were still being read gets their latest cards now.
  void mount.index.loaded.then(() => stop.signal.aborted || publish(selectSnapshot(mount.index.summaries()).filter((entry) => isTerminal(entry.status)).map((entry) => toCard(entry, mount.index, slaIds)), [], mount.index.counts()), () => undefined);
  void watchSla(mount, stop.signal, (ids) => ((slaIds = ids), diff()));
  return {
    epoch,
    snapshot: () => ({ epoch, seq, cards: selectSnapshot(mount.index.summaries()).map((entry) => toCard(entry, mount.index, slaIds)), counts: mount.index.counts() }),
    since(after) {
      if (after > seq || after < 0) return null;
      if (after === seq) return [];
      const first = kept[0];
      if (!first || first.seq > after + 1) return null;
      return kept.filter((change) => change.seq > after);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: () => stop.abort(),
  };
}

// --- internal ---

/** Diffs after each change; after a diff that left done and cancelled out, a full one follows within FULL_EVERY_MS. */
async function follow(mount: WebMount, signal: AbortSignal, diff: () => boolean): Promise<void> {
  let version = mount.changes.version();
  let full = true;
  while (!signal.aborted) {
    version = await mount.changes.wait(version, full ? 25_000 : FULL_EVERY_MS, signal);
    await sleep(COALESCE_MS); // a burst of changes is one batch; a closed feed cannot spin
    if (!signal.aborted) full = diff();
  }
}

async function watchSla(mount: WebMount, signal: AbortSignal, onChange: (ids: Set<string>) => void): Promise<void> {
  let last = '';
  while (!signal.aborted) {
    const events = await readEvents(mount.paths.root, { type: 'sla.violation', days: 1 }).catch(() => []);
    const ids = new Set(events.map((event) => event.taskId).filter((id): id is string => !!id));
    const key = [...ids].sort().join(',');
    if (key !== last) ((last = key), onChange(ids));
    await sleep(SLA_EVERY_MS, undefined, { signal }).catch(() => undefined);
  }
}
