import { findBackEdges } from '../core/graph.js';
import type { SourceRecord } from './sources/record.js';

/** One link an import dropped because it closed a cycle: the record it left, the link, and the cycle as source ids. */
export interface BrokenCycle {
  sourceId: string;
  kind: 'dependency' | 'parent';
  dropped: string;
  cycle: string[];
}

/**
 * Finds the cycles among the records' dependencies and among their parents (a task waiting on
 * itself, two tasks waiting on each other, a parent chain that comes back) and drops the link
 * that closes each, so no imported task waits forever. `records` is changed in place (a copy of
 * the record replaces it); links to ids outside `records` are never cycles here. Linear in records
 * and links.
 */
export function breakCycles(records: SourceRecord[]): BrokenCycle[] {
  const index = new Map<string, number>();
  records.forEach((record, i) => index.set(record.sourceId, i));
  const broken: BrokenCycle[] = [];
  const depsOf = (i: number) =>
    records[i]!.dependsOn.map((dep) => index.get(dep)).filter((at): at is number => at !== undefined);
  for (const [from, to, cycle] of findBackEdges(records.length, depsOf)) {
    const record = records[from]!;
    const dropped = records[to]!.sourceId;
    records[from] = { ...record, dependsOn: record.dependsOn.filter((dep) => dep !== dropped) };
    broken.push({
      sourceId: record.sourceId,
      kind: 'dependency',
      dropped,
      cycle: cycle.map((i) => records[i]!.sourceId),
    });
  }
  const parentOf = (i: number) => {
    const at = records[i]!.parentId === undefined ? undefined : index.get(records[i]!.parentId!);
    return at === undefined ? [] : [at];
  };
  for (const [from, to, cycle] of findBackEdges(records.length, parentOf)) {
    const { parentId: _parent, ...record } = records[from]!;
    records[from] = record;
    broken.push({
      sourceId: record.sourceId,
      kind: 'parent',
      dropped: records[to]!.sourceId,
      cycle: cycle.map((i) => records[i]!.sourceId),
    });
  }
  return broken;
}

/** The cycle of a broken link in words: `a -> b -> a`. */
export function describeCycle(broken: BrokenCycle): string {
  const link = broken.kind === 'dependency' ? `dependency on ${broken.dropped}` : `parent ${broken.dropped}`;
  return `${broken.kind} cycle ${[...broken.cycle, broken.cycle[0]].join(' -> ')}: its ${link} was dropped`;
}
