import type { ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readEvents } from '../../lib/store/events/log.js';
import { toPaths } from '../../lib/store/disk/paths.js';
import { call, type ChildDaemon } from '../helpers/daemon.js';

// The torture run's writers and what it reads after the chaos (torture.test.ts): each writer's journal
// of acknowledged changes, and a report of a daemon whose settle stalled.

/** The writers' kinds: the command line, tools over the socket, files renamed in and moved by hand. */
export const KINDS = ['cli', 'tool', 'hand'] as const;
export type Kind = (typeof KINDS)[number];

/** A writer process of one kind and generation (a new generation after each SIGKILL). */
export interface Writer {
  kind: Kind;
  generation: number;
  child: ChildProcess;
  exited: Promise<void>;
}

/** One line of a writer's journal: a change svc acknowledged (or, for `move-intent`, is about to make). */
export type Record = { op: string; id: string; title?: string; mark?: string; to?: string; dispatched?: boolean };

/** SIGKILLs `child` unless it has already ended, then waits for it to close. */
export async function kill(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await exited;
}

/** The journal of the writer of `kind`, a torn last line left out. */
export function readJournal(root: string, kind: Kind): Record[] {
  const file = `${root}/journal-${kind}.jsonl`;
  if (!existsSync(file)) return [];
  // A writer killed mid-append leaves at most a torn last line: that change was not acknowledged yet.
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line) => {
      try {
        return line ? [JSON.parse(line) as Record] : [];
      } catch {
        return [];
      }
    });
}

/** What a stalled settle leaves to read: the daemon's log, status and plan, open tasks, last events, agents' log. */
export async function stallReport(root: string, daemon: ChildDaemon): Promise<string> {
  const paths = toPaths(root);
  const tail = (file: string, lines: number) =>
    existsSync(file) ? readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n') : `(no ${file})`;
  const answer = async (path: string) =>
    JSON.stringify((await call(root, 'GET', path).catch((err: unknown) => ({ body: String(err) }))).body).slice(
      0,
      3000,
    );
  const open = (['ready', 'in-progress'] as const).flatMap((status) =>
    readdirSync(paths.statusDir(status))
      .filter((name) => name.endsWith('.md'))
      .slice(0, 8)
      .map(
        (name) =>
          `--- ${status}/${name}\n${readFileSync(`${paths.statusDir(status)}/${name}`, 'utf8')
            .split('---')[1]
            ?.trim()}`,
      ),
  );
  const events = (await readEvents(root))
    .slice(-40)
    .map((e) => `${e.timestamp} ${e.type} ${e.taskId ?? '-'} ${JSON.stringify(e.payload).slice(0, 200)}`);
  return [
    `daemon alive: ${daemon.child.exitCode === null && daemon.child.signalCode === null}; its output:\n${daemon.output().slice(-1500)}`,
    `daemon log:\n${tail(paths.daemonLog, 40)}`,
    `failures in the daemon log (last 20):\n${
      existsSync(paths.daemonLog)
        ? readFileSync(paths.daemonLog, 'utf8')
            .split('\n')
            .filter((l) => /could not|failed|error/.test(l))
            .slice(-20)
            .join('\n')
        : '-'
    }`,
    `/status: ${await answer('/status')}`,
    `/v1/scheduler/plan: ${await answer('/v1/scheduler/plan')}`,
    `open tasks (first 8 of each):\n${open.join('\n')}`,
    `last events:\n${events.join('\n')}`,
    `agents' log:\n${tail(`${paths.logs}/agents.log`, 40)}`,
    `spawn markers: ${existsSync(paths.spawns) ? readdirSync(paths.spawns).join(' ') : '-'}; runs: ${existsSync(paths.runs) ? readdirSync(paths.runs).join(' ') : '-'}`,
  ].join('\n\n');
}
