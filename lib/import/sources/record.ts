import type { Priority } from '../../core/priority.js';
import type { Status } from '../../core/status.js';
import type { Task } from '../../core/task.js';
import type { Store } from '../../store/commit/store.js';

/**
 * One task as a source gives it, before it becomes an svc task: its id in the source, where it
 * was read, and the fields svc has. `dependsOn` and `parentId` are source ids; the import
 * rewrites them through the map. `extra` goes under `metadata.<system>`.
 */
export interface SourceRecord {
  sourceId: string;
  /** The file (and line) it was read from, for reports. */
  file: string;
  url?: string;
  title: string;
  body: string;
  status: Status;
  priority?: Priority;
  tags?: string[];
  dependsOn: string[];
  parentId?: string;
  createdAt?: string;
  project?: string;
  extra?: Record<string, unknown>;
  /** An svc export: the task exactly as exported (its own id kept when free). */
  exact?: Task;
  /** The id the source already uses and svc also accepts: kept when free, else a new id. */
  wantedId?: string;
  /** Fields of svc's frontmatter the source also has (routing, sla, createdBy, metadata, gate). */
  fields?: Partial<Task>;
  /** A folder of the entry's files, copied to `data/imports/<system>-files/<svc id>/` and named in the body. */
  companion?: string;
  /** The prefix the source put on this record's ids and links (`<project>/` of an AOF project's task). */
  scope?: string;
  /** A summary of the source's events about this entry, one line each, for the `task.imported` event. */
  history?: { count: number; lines: string[] };
}

/**
 * The parts of a record that do not make it "changed at the source" (where it was read, its files folder, its history,
 * its scope).
 */
export function toHashedRecord(record: SourceRecord): Omit<SourceRecord, 'file' | 'companion' | 'history' | 'scope'> {
  const { file: _file, companion: _companion, history: _history, scope: _scope, ...rest } = record;
  return rest;
}

/** An entry the source could not read, with the file and the reason. */
export interface SourceProblem {
  file: string;
  reason: string;
}

/**
 * What a source reader returns: the records it read, the entries it could not, and the entries it leaves out by design
 * (deleted at the source).
 */
export interface SourceRead {
  records: SourceRecord[];
  problems: SourceProblem[];
  skipped?: SourceProblem[];
}

/** Options a reader may use (`--status-map` of backlog-md). */
export interface ReadOptions {
  statusMap?: Record<string, Status>;
  /** aof: keep `in-progress` (and review at a mapped gate) as in-progress instead of ready. */
  keepStatus?: boolean;
  /** The svc root imported into (aof reads its workflows to map review tasks). */
  root?: string;
}

/** An import source: its name and its reader of a path (a file or a directory). */
export interface ImportSource {
  system: string;
  /** What the path must be, for the error when it is not. */
  expects: string;
  read(path: string, options: ReadOptions): Promise<SourceRead>;
  /**
   * What a source brings besides tasks (aof: its org chart and event log), previewed in a dry run and written
   * otherwise.
   */
  finish?(path: string, store: Store, options: { dryRun: boolean }): Promise<ImportExtras>;
}

/** The report of `finish`: the org chart merge and the kept event log. */
export interface ImportExtras {
  org?: OrgMerge;
  events?: { file: string; lines: number; added: number };
}

/** One entry of AOF's org chart and what the merge does with it: add it, or keep svc's entry of that id. */
export interface OrgChange {
  kind: 'agent' | 'team' | 'role' | 'memoryPools';
  id: string;
  action: 'add' | 'keep';
}

/** The preview (or the result) of merging AOF's org chart into svc's. */
export interface OrgMerge {
  from: string;
  file: string;
  changes: OrgChange[];
  /** AOF's top-level keys svc has no place for (routing rules, org units, ...), not merged. */
  ignored: string[];
  written: boolean;
  /** Why nothing was written: the merged chart would not be valid. */
  problem?: string;
}
