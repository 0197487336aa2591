import { DEFAULT_PRIORITY } from '../core/priority.js';
import type { Status } from '../core/status.js';

/** What a step may use besides the frontmatter: the file's id, directory, time and body. */
export interface StepInput {
  id: string;
  status: Status;
  /** The file's modification time: the best guess of when a hand-written task was made. */
  mtime: Date;
  body: string;
}

/**
 * One numbered schema migration: it brings frontmatter of version `version - 1` to `version`,
 * changing `data` in place, and returns one line per change. A step only ever runs on a file
 * below its version, so running the steps twice changes nothing the second time.
 */
export interface MigrationStep {
  version: number;
  name: string;
  apply(data: Record<string, unknown>, input: StepInput): string[];
}

/** Every step, in order; a future schema change appends one (docs/moving-in-and-out.md). */
export const MIGRATIONS: readonly MigrationStep[] = [
  { version: 1, name: 'schemaVersion 1 and the defaults of missing required fields', apply: toVersion1 },
];

// --- internal ---

/**
 * Version 1: a file without `schemaVersion` (hand-written, as they often are) gets it and every missing required field.
 */
function toVersion1(data: Record<string, unknown>, input: StepInput): string[] {
  const createdAt = typeof data.createdAt === 'string' ? data.createdAt : input.mtime.toISOString();
  const updatedAt = typeof data.updatedAt === 'string' ? data.updatedAt : createdAt;
  const defaults: [string, unknown, string][] = [
    ['id', input.id, 'the file name'],
    ['project', 'default', 'the default'],
    ['title', toHeading(input.body) ?? input.id, toHeading(input.body) ? 'the first heading of the body' : 'the id'],
    ['status', input.status, 'the directory'],
    ['priority', DEFAULT_PRIORITY, 'the default'],
    ['routing', {}, 'the default'],
    ['createdAt', createdAt, "the file's modification time"],
    ['updatedAt', updatedAt, 'createdAt'],
    ['lastTransitionAt', updatedAt, 'updatedAt'],
    ['createdBy', 'unknown', 'the default'],
    ['dependsOn', [], 'the default'],
    ['metadata', {}, 'the default'],
  ];
  const changes = ['schemaVersion: 1'];
  data.schemaVersion = 1;
  for (const [key, value, from] of defaults) {
    if (data[key] !== undefined && data[key] !== null) continue;
    data[key] = value;
    changes.push(`${key}: ${JSON.stringify(value)} (was missing; ${from})`);
  }
  return changes;
}

function toHeading(body: string): string | undefined {
  const heading = /^#{1,6}[ \t]+(.+?)[ \t#]*$/m.exec(body)?.[1]?.trim();
  return heading ? heading.slice(0, 500) : undefined;
}
