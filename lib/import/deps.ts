import { isSafeId } from '../core/ids.js';
import type { ImportMap } from './map.js';

/** The svc id a source id maps to (this run or an earlier one), if any. */
export function toMappedId(sourceId: string, ids: ReadonlyMap<string, string>, map: ImportMap): string | undefined {
  return ids.get(sourceId) ?? map.entries[sourceId]?.id;
}

/**
 * What `rewriteDeps` rewrites through: this run's ids, the map, the entries of this import without an id yet, the
 * record's scope.
 */
export interface RewriteContext {
  ids: ReadonlyMap<string, string>;
  map: ImportMap;
  planned?: ReadonlySet<string>;
  /**
   * The prefix the source gave the record's links (`<project>/` of an AOF project), taken off a link kept as it was.
   */
  scope?: string;
}

/**
 * Rewrites source ids of dependencies through the map; ids not imported are kept as the source wrote them (made safe)
 * and listed as dangling.
 */
export function rewriteDeps(deps: readonly string[], ctx: RewriteContext): { dependsOn: string[]; dangling: string[] } {
  const { ids, map, planned = new Set<string>(), scope } = ctx;
  const dependsOn: string[] = [];
  const dangling: string[] = [];
  for (const dep of deps) {
    const mapped = toMappedId(dep, ids, map);
    const raw = scope && dep.startsWith(scope) ? dep.slice(scope.length) : dep;
    const id =
      mapped ??
      (isSafeId(raw)
        ? raw
        : String(raw)
            .replace(/[^A-Za-z0-9._-]/g, '-')
            .replace(/^[^A-Za-z0-9]+/, '') || 'unknown');
    // a task of this import without an id yet (a dry run) is not dangling
    if (!mapped && !planned.has(dep)) dangling.push(id);
    if (!dependsOn.includes(id)) dependsOn.push(id);
  }
  return { dependsOn, dangling };
}
