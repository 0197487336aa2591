import { SvcError } from '../core/errors.js';
import { isStatus, STATUSES, type Status } from '../core/status.js';
import { toDidYouMean } from '../core/suggest.js';
import { toStorableText } from '../core/text.js';
import type { Store } from '../store/commit/store.js';
import { applyImport } from './apply.js';
import { planImport, type ImportAction, type ImportItem } from './plan.js';
import type { ImportExtras, ImportSource, SourceProblem, SourceRead } from './sources/record.js';
import { aofSource } from './sources/aof/source.js';
import { backlogMdSource } from './sources/backlog-md.js';
import { beadsSource } from './sources/beads.js';
import { githubSource } from './sources/github.js';
import { svcSource } from './sources/svc.js';

export type { ImportItem };

/** Every import source by name. */
export const SOURCES: Readonly<Record<string, ImportSource>> = {
  svc: svcSource,
  aof: aofSource,
  github: githubSource,
  beads: beadsSource,
  'backlog-md': backlogMdSource,
};

/** What `runImport` reads. */
export interface ImportFrom {
  /** The source's name, a key of SOURCES. */
  source: string;
  /** The file or folder the source reads. */
  path: string;
}

/** Options of `runImport`. */
export interface ImportOptions {
  dryRun?: boolean;
  project?: string;
  /** `--status-map "To Do=backlog,Done=done"` (backlog-md). */
  statusMap?: string;
  /** aof: keep in-progress tasks in progress (without their lease) instead of ready. */
  keepStatus?: boolean;
  actor?: string;
  /**
   * Hears of each batch written (not in a dry run): its entries, and of the whole import the count and the longest
   * source id.
   */
  onBatch?: (batch: ImportBatch) => void;
}

/** One batch of an import as it is written: what a run cut short has done. */
export interface ImportBatch {
  items: ImportItem[];
  total: number;
  longestSourceId: number;
}

/** What an import did (or, with `dryRun`, would do). */
export interface ImportReport extends ImportExtras {
  system: string;
  dryRun: boolean;
  items: ImportItem[];
  /** Entries the source could not read (a malformed line or file), each with its file and reason. */
  problems: SourceProblem[];
  /** Entries left out by design (deleted at the source), each with its file and reason: no problem. */
  skipped: SourceProblem[];
  summary: Record<ImportAction | 'problems' | 'skipped' | 'cycles', number>;
}

/** Reads a source and imports it (docs/moving-in-and-out.md): idempotent through `data/imports/<source>.json`. */
export async function runImport(store: Store, from: ImportFrom, options: ImportOptions = {}): Promise<ImportReport> {
  const { source: sourceName, path } = from;
  const source = Object.hasOwn(SOURCES, sourceName) ? SOURCES[sourceName]! : undefined;
  if (!source)
    throw new SvcError(
      'validation_error',
      `Unknown import source ` +
        `${JSON.stringify(sourceName)}.${toDidYouMean(sourceName, Object.keys(SOURCES), (name) => `\`${name}\``)}`,
      `Use one of: ${Object.keys(SOURCES).join(', ')}.`,
    );
  const statusMap = options.statusMap === undefined ? undefined : parseStatusMap(options.statusMap);
  const read = toStorableRead(
    await source.read(path, {
      ...(statusMap ? { statusMap } : {}),
      keepStatus: options.keepStatus === true,
      root: store.paths.root,
    }),
  );
  const now = store.clock();
  await store.init();
  const plan = await planImport(
    store,
    { system: source.system, read },
    { ...(options.project ? { project: options.project } : {}), now, reserveIds: !options.dryRun },
  );
  const longestSourceId = plan.items.reduce((most, item) => Math.max(most, item.sourceId.length), 0);
  const onBatch =
    options.onBatch === undefined
      ? undefined
      : (items: readonly ImportItem[]) =>
          options.onBatch!({ items: items.map(toReportItem), total: plan.items.length, longestSourceId });
  if (!options.dryRun)
    await applyImport(store, plan, {
      now,
      actor: options.actor ?? `import:${source.system}`,
      ...(onBatch ? { onBatch } : {}),
    });
  const extras = source.finish ? await source.finish(path, store, { dryRun: options.dryRun === true }) : {};
  const items = plan.items.map(toReportItem);
  const skipped = read.skipped ?? [];
  const summary = {
    create: 0,
    update: 0,
    unchanged: 0,
    kept: 0,
    missing: 0,
    invalid: 0,
    problems: plan.problems.length,
    skipped: skipped.length,
    cycles: 0,
  };
  for (const item of items) summary[item.action]++;
  for (const item of items) summary.cycles += item.cycles?.length ?? 0;
  return {
    system: source.system,
    dryRun: options.dryRun === true,
    items,
    problems: plan.problems,
    skipped,
    summary,
    ...extras,
  };
}

/** Parses `"To Do=backlog,In Progress=ready"`; an unknown svc status is refused with the list. */
export function parseStatusMap(text: string): Record<string, Status> {
  const out: Record<string, Status> = {};
  for (const pair of text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const at = pair.lastIndexOf('=');
    const name = pair.slice(0, at).trim();
    const status = pair.slice(at + 1).trim();
    if (at <= 0 || !isStatus(status))
      throw new SvcError(
        'validation_error',
        `--status-map: ${JSON.stringify(pair)} is not <source status>=<svc status>.`,
        `Write pairs such as "To Do=backlog,Done=done"; svc statuses: ${STATUSES.join(', ')}.`,
      );
    out[name] = status;
  }
  return out;
}

// --- internal ---

/**
 * The records with a NUL in a title or body escaped (`\x00`): a task carrying one could never be dispatched to a local
 * agent.
 */
function toStorableRead(read: SourceRead): SourceRead {
  const records = read.records.map((record) => ({
    ...record,
    title: toStorableText(record.title),
    body: toStorableText(record.body),
    ...(record.exact ? { exact: { ...record.exact, title: toStorableText(record.exact.title) } } : {}),
  }));
  return { ...read, records };
}

function toReportItem({ sourceId, file, action, id, reason, dangling, cycles }: ImportItem): ImportItem {
  return {
    sourceId,
    file,
    action,
    ...(id ? { id } : {}),
    ...(reason ? { reason } : {}),
    dangling,
    ...(cycles ? { cycles } : {}),
  };
}
