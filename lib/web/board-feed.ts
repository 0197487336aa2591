import { randomBytes } from 'node:crypto';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import { isTerminal, type Status } from '../core/status.js';
import type { WebMount } from '../daemon/web-port.js';
import { readEvents } from '../store/events/log.js';
import { createBoardDelta, type Delta } from './board-delta.js';
import type { Hold } from '../engine/scheduler.js';
import { selectSnapshot, toCard, type Card } from './cards.js';
import { describeError } from '../core/errors.js';

/** A batch of board changes with its sequence number (docs/web-board.md, "Live updates"). */
export interface BoardChange {
  seq: number;
  upserts: Card[];
  removed: string[];
  counts: Record<Status, number>;
}

/** A change as sent: serialised once, whatever the number of open boards. */
export interface SentChange {
  change: BoardChange;
  /** `JSON.stringify(change)`. */
  data: string;
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
  since(seq: number): SentChange[] | null;
  subscribe(listener: (sent: SentChange) => void): () => void;
  close(): void;
}

/** How many change batches are kept for pages that reconnect. */
const KEPT = 2000;
/** A change is sent this long after the first id it touched: a dispatch's few commits are one batch. */
const COALESCE_MS = 15;
/**
 * The gap between two batches: at least MIN_GAP_MS, and BOARD_GAP_MS per open board. Each batch
 * costs every open page a redraw, and the pages run on the daemon's machine (the board is served
 * on loopback): under a stream of changes all boards together redraw about 40 times a second, not
 * 40 times per board (20 boards: two batches a second), one page after the other BOARD_GAP_MS
 * apart. A change after a quiet gap goes at once.
 */
const MIN_GAP_MS = 50;
const BOARD_GAP_MS = 25;
/** Ids taken per turn of the event loop when a change touches many (a burst, or an unknown change). */
const SLICE = 500;
/** How often the scheduler's holds are looked at (a tick makes a new map; an unchanged one costs a comparison). */
const HOLDS_EVERY_MS = 500;
/** How often the day's SLA violations are read again. */
const SLA_EVERY_MS = 30_000;

/**
 * Follows `mount.changes`: the ids each change touched (and the tasks that depend on them) become
 * one batch of cards, computed once and serialised once for every open board (docs/web-board.md).
 */
export function startBoardFeed(mount: WebMount): BoardFeed {
  const epoch = randomBytes(6).toString('hex');
  const delta = createBoardDelta(mount.index, mount.clock().toISOString());
  const kept: SentChange[] = [];
  const listeners = new Map<(sent: SentChange) => void, number>(); // each with when its last batch is due
  let seq = 0;
  const marks: { sla: Set<string>; holds: ReadonlyMap<string, Hold> } = { sla: new Set(), holds: new Map() };
  const stop = new AbortController();
  const publish = ({ upserts, removed }: Delta) => {
    if (!upserts.length && !removed.length) return;
    const change: BoardChange = { seq: ++seq, upserts, removed, counts: mount.index.counts() };
    const sent = { change, data: JSON.stringify(change) };
    kept.push(sent);
    if (kept.length > KEPT) kept.shift();
    // The pages get a batch in turn, BOARD_GAP_MS apart, so their redraws never land on the machine all at once.
    // A page's batches keep their order: none is due before the one sent to it last.
    let turn = 0;
    const now = Date.now();
    for (const [listener, due] of listeners) {
      const at = Math.max(now + turn++ * BOARD_GAP_MS, due);
      listeners.set(listener, at);
      if (at <= now) listener(sent);
      else setTimeout(() => listeners.has(listener) && listener(sent), at - now).unref();
    }
  };
  const onError = (err: unknown) => mount.log.error('web.feed_failed', { message: describeError(err) });
  const gap = () => Math.max(MIN_GAP_MS, listeners.size * BOARD_GAP_MS);
  const flush = async (ids: Set<string> | null) => {
    const wide = ids ? delta.widen(ids) : delta.allIds();
    let slice: string[] = [];
    for (const id of wide) {
      if (slice.push(id) < SLICE) continue;
      // each slice is taken and sent in one turn: a card is never older than the batch before it
      publish(delta.take(slice, marks));
      slice = [];
      await nextTurn();
    }
    publish(delta.take(slice, marks));
  };
  const flusher = createFlusher(stop.signal, { gap, onError, flush });
  delta.learn(mount.index.summaries());
  const unlisten = mount.changes.listen(flusher.touch);
  stop.signal.addEventListener('abort', unlisten, { once: true });
  // A page that opened while done and cancelled were still being read gets their latest cards now.
  void mount.index.loaded.then(
    () => {
      if (stop.signal.aborted) return;
      delta.learn(mount.index.summaries());
      publish({
        upserts: selectSnapshot(mount.index.summaries())
          .filter((entry) => isTerminal(entry.status))
          .map((entry) => toCard(entry, mount.index, marks)),
        removed: [],
      });
    },
    () => undefined,
  );
  void watchSla(mount, stop.signal, (ids) => {
    const moved = [...ids].filter((id) => !marks.sla.has(id)).concat([...marks.sla].filter((id) => !ids.has(id)));
    marks.sla = ids;
    flusher.touch(moved);
  });
  void watchHolds(mount, stop.signal, (holds) => {
    // the cards whose hold may differ (their key tells)
    const moved = new Set([...holds.keys(), ...marks.holds.keys()]);
    marks.holds = holds;
    flusher.touch([...moved]);
  });
  return {
    epoch,
    snapshot: () => ({
      epoch,
      seq,
      cards: selectSnapshot(mount.index.summaries()).map((entry) => toCard(entry, mount.index, marks)),
      counts: mount.index.counts(),
    }),
    since(after) {
      if (after > seq || after < 0) return null;
      if (after === seq) return [];
      const first = kept[0];
      if (!first || first.change.seq > after + 1) return null;
      return kept.filter((sent) => sent.change.seq > after);
    },
    subscribe(listener) {
      listeners.set(listener, 0);
      return () => listeners.delete(listener);
    },
    close: () => stop.abort(),
  };
}

// --- internal ---

/**
 * Collects touched ids (null: unknown, all of them) and runs `flush` with them COALESCE_MS after
 * the first, at most once per `gap()`, never two at once.
 */
/** What a flusher runs (`flush`), how far apart (`gap()`), and where its failures go. */
interface Flushing {
  gap: () => number;
  onError: (err: unknown) => void;
  flush: (ids: Set<string> | null) => Promise<void>;
}

function createFlusher(signal: AbortSignal, { gap, onError, flush }: Flushing) {
  let touched = new Set<string>();
  let all = false;
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let last = 0;
  const schedule = () => {
    if (timer || running || signal.aborted || (!all && !touched.size)) return;
    timer = setTimeout(() => void run(), Math.max(COALESCE_MS, last + gap() - Date.now()));
  };
  const run = async () => {
    timer = undefined;
    const ids = all ? null : touched;
    touched = new Set();
    all = false;
    running = true;
    last = Date.now();
    await flush(ids).catch(onError);
    running = false;
    schedule();
  };
  signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
  return {
    touch(ids: readonly string[] | null) {
      if (ids) for (const id of ids) touched.add(id);
      else all = true;
      schedule();
    },
  };
}

/** Looks at the scheduler's holds every HOLDS_EVERY_MS; calls `onChange` when the last tick made new ones. */
async function watchHolds(
  mount: WebMount,
  signal: AbortSignal,
  onChange: (holds: ReadonlyMap<string, Hold>) => void,
): Promise<void> {
  let last: ReadonlyMap<string, Hold> | null = null;
  while (!signal.aborted && mount.holds) {
    const holds = mount.holds();
    if (holds !== last) {
      last = holds;
      onChange(holds);
    }
    await sleep(HOLDS_EVERY_MS, undefined, { signal }).catch(() => undefined);
  }
}

async function watchSla(mount: WebMount, signal: AbortSignal, onChange: (ids: Set<string>) => void): Promise<void> {
  let last = '';
  while (!signal.aborted) {
    const events = await readEvents(mount.paths.root, { type: 'sla.violation', days: 1 }).catch(() => []);
    const ids = new Set(events.map((event) => event.taskId).filter((id): id is string => !!id));
    const key = [...ids].sort().join(',');
    if (key !== last) {
      last = key;
      onChange(ids);
    }
    await sleep(SLA_EVERY_MS, undefined, { signal }).catch(() => undefined);
  }
}
