import type { Priority } from '../core/priority.js';
import type { Status } from '../core/status.js';
import type { Task } from '../core/task.js';

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
}

/** An entry the source could not read, with the file and the reason. */
export interface SourceProblem {
  file: string;
  reason: string;
}

/** What a source reader returns: the records it read and the entries it could not. */
export interface SourceRead {
  records: SourceRecord[];
  problems: SourceProblem[];
}

/** Options a reader may use (`--status-map` of backlog-md). */
export interface ReadOptions {
  statusMap?: Record<string, Status>;
}

/** An import source: its name and its reader of a path (a file or a directory). */
export interface ImportSource {
  system: string;
  /** What the path must be, for the error when it is not. */
  expects: string;
  read(path: string, options: ReadOptions): Promise<SourceRead>;
}
