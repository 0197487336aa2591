import { isTerminal } from '../core/status.js';
import type { IndexEntry, TaskIndex } from '../store/index/tasks.js';
import { NO_MARKS, toCard, type Card, type CardMarks } from './cards.js';

/** The card changes of some touched tasks, as of the moment they were taken. */
export interface Delta {
  upserts: Card[];
  removed: string[];
}

/**
 * What the board last sent of each task, and which tasks wait on which: turns the ids a change
 * touched into card changes in O(touched + their dependents), never a pass over the whole index.
 */
export interface BoardDelta {
  /** Records `entries` as sent without sending them (the tasks there at start, or read by the background load). */
  learn(entries: Iterable<IndexEntry>): void;
  /** The touched ids and the tasks that depend on them (their open dependencies may have changed). */
  widen(ids: Iterable<string>): Set<string>;
  /** The cards of `ids` that differ from what was sent, and the ids gone from the index; recorded as sent. */
  take(ids: Iterable<string>, marks: CardMarks): Delta;
  /** Every id the board knows of or the index holds (an unknown change re-reads them all). */
  allIds(): Set<string>;
}

interface Sent {
  key: string;
  deps: readonly string[];
}

/** Starts with nothing sent; `startedAt`: done and cancelled tasks last changed before it are history, not news. */
export function createBoardDelta(index: TaskIndex, startedAt: string): BoardDelta {
  const sent = new Map<string, Sent>();
  const dependents = new Map<string, Set<string>>();
  const link = (id: string, before: readonly string[], after: readonly string[]) => {
    if (before === after || (before.length === 0 && after.length === 0)) return;
    for (const dep of before) dependents.get(dep)?.delete(id);
    for (const dep of after) (dependents.get(dep) ?? dependents.set(dep, new Set()).get(dep)!).add(id);
  };
  // What a card is drawn from: its file (status and stamp), its SLA mark and hold, the status of each dependency.
  const keyOf = (entry: IndexEntry, marks: CardMarks) => {
    const hold = marks.holds.get(entry.id);
    return (
      `${entry.status}|${entry.stamp}|${marks.sla.has(entry.id) ? 1 : 0}` +
      `|${hold ? `${hold.reason}:${hold.detail}` : ''}` +
      `|${entry.dependsOn.length ? entry.dependsOn.map((dep) => index.get(dep)?.status).join(',') : ''}`
    );
  };
  const record = (entry: IndexEntry, key: string) => {
    link(entry.id, sent.get(entry.id)?.deps ?? [], entry.dependsOn);
    sent.set(entry.id, { key, deps: entry.dependsOn });
  };
  return {
    learn(entries) {
      for (const entry of entries) if (!sent.has(entry.id)) record(entry, keyOf(entry, NO_MARKS));
    },
    widen(ids) {
      const wide = new Set<string>();
      for (const id of ids) {
        wide.add(id);
        for (const dependent of dependents.get(id) ?? []) wide.add(dependent);
      }
      return wide;
    },
    take(ids, marks) {
      const delta: Delta = { upserts: [], removed: [] };
      for (const id of ids) {
        const entry = index.get(id);
        const before = sent.get(id);
        if (!entry) {
          if (before) {
            link(id, before.deps, []);
            sent.delete(id);
            delta.removed.push(id);
          }
          continue;
        }
        const key = keyOf(entry, marks);
        if (before?.key === key) continue;
        record(entry, key);
        if (before === undefined && isTerminal(entry.status) && entry.updatedAt < startedAt) continue;
        delta.upserts.push(toCard(entry, index, marks));
      }
      return delta;
    },
    allIds() {
      const ids = new Set(sent.keys());
      for (const entry of index.summaries()) ids.add(entry.id);
      return ids;
    },
  };
}
