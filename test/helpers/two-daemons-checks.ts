// What the multi-host tests check on two daemons of one tree: every task done, each dispatched and
// run once, and the events and answers that tell it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import * as assert from 'uvu/assert';
import { STATUSES } from '../../lib/core/status.js';
import { toPaths } from '../../lib/store/disk/paths.js';
import { untilCount, within } from './root.js';
import type { Host } from './two-daemons.js';

/**
 * Waits until every id is in done/ of the shared `tasks` tree (failing only when none arrives for
 * `stallMs`); a failure says where the missing tasks are, what the hosts moved to data/conflicts/,
 * and what their daemons logged about them.
 */
export async function untilDone(tasks: string, ids: string[], hosts: Host[], stallMs = 60_000): Promise<void> {
  const wanted = new Set(ids.map((id) => `${id}.md`));
  try {
    await untilCount(
      ids.length,
      () => readdirSync(`${tasks}/done`).filter((name) => wanted.has(name)).length,
      stallMs,
      `${ids.length} tasks in done/`,
    );
  } catch (err) {
    const done = new Set(readdirSync(`${tasks}/done`));
    const missing = ids.filter((id) => !done.has(`${id}.md`));
    const where = missing.map(
      (id) =>
        `${id}: ${STATUSES.filter((status) => existsSync(`${tasks}/${status}/${id}.md`)).join(', ') || 'in no status directory'}`,
    );
    const conflicts = hosts.map(
      (host) =>
        `${host.name}: ${existsSync(toPaths(host.home).conflicts) ? readdirSync(toPaths(host.home).conflicts).join(', ') : ''}`,
    );
    const logs = hosts.map(
      (host) =>
        `${host.name}:\n${readFileSync(toPaths(host.home).daemonLog, 'utf8')
          .split('\n')
          .filter((line) => missing.some((id) => line.includes(id)))
          .slice(-15)
          .join('\n')}`,
    );
    throw new Error(
      `${(err as Error).message}\nmissing: ${where.join('; ')}\nconflicts: ${conflicts.join('; ')}\nlogs:\n${logs.join('\n')}`,
    );
  }
}

/**
 * Exactly once: every task dispatched once and run once, every agent's completion answered 200,
 * every lease granted by one of `daemons` (`host pid`), no dispatch failure or invalid task, no
 * task left outside done/, nothing in data/conflicts/, and no internal error in a daemon's log.
 */
export async function assertOnce(
  hosts: Host[],
  tasks: string,
  ids: string[],
  daemons = hosts.map((host) => `${hostname()} ${host.daemon?.child.pid}`),
): Promise<void> {
  await within(
    20_000,
    () => ids.every((id) => results(hosts).some((run) => run.taskId === id)),
    'every agent recorded its answer',
  );
  const runs = results(hosts);
  assert.equal(
    runs.filter((run) => run.status !== 200),
    [],
    'every svc_task_complete call succeeds',
  );
  assert.equal(duplicates(runs.map((run) => run.taskId)), [], 'each task run once');
  const events = hosts.flatMap((host) => readEvents(host.home));
  const dispatched = events.filter((event) => event.type === 'task.dispatched').map((event) => String(event.taskId));
  assert.equal(duplicates(dispatched), [], 'each task dispatched once');
  assert.equal(
    ids.filter((id) => !dispatched.includes(id)),
    [],
    'every task dispatched',
  );
  const owners = events
    .filter((event) => event.type === 'task.dispatched')
    .map((event) => {
      const { host, pid } = event.payload as { host?: string; pid?: number };
      return `${host} ${pid}`;
    });
  assert.equal(
    owners.filter((owner) => !daemons.includes(owner)),
    [],
    'every lease names a daemon that granted it',
  );
  assert.equal(
    events
      .filter((event) => event.type === 'dispatch.failed' || event.type === 'task.invalid')
      .map((event) => [event.type, event.taskId, event.payload]),
    [],
  );
  const stranded = STATUSES.filter((status) => status !== 'done').flatMap((status) =>
    readdirSync(`${tasks}/${status}`)
      .filter((name) => name.endsWith('.md'))
      .map((name) => `${status}/${name}`),
  );
  assert.equal(stranded, [], 'no task outside done/');
  for (const host of hosts) {
    const conflicts = toPaths(host.home).conflicts;
    assert.equal(
      existsSync(conflicts) ? readdirSync(conflicts) : [],
      [],
      `nothing moved to data/conflicts/ by ${host.name}`,
    );
    const log = readFileSync(toPaths(host.home).daemonLog, 'utf8');
    assert.not.match(log, /"internal"|internal error/, `no internal error in the log of ${host.name}`);
    assert.not.match(
      host.daemon?.output() ?? '',
      /Assertion failed|Aborted|core dumped/,
      `daemon ${host.name} did not abort`,
    );
  }
}

/** One event of a host's event log. */
export interface Event {
  timestamp: string;
  type: string;
  taskId?: string;
  actor?: string;
  payload: unknown;
}

/** Every event in a home's event log. */
export function readEvents(home: string): Event[] {
  const dir = toPaths(home).events;
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) =>
    readFileSync(`${dir}/${name}`, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Event),
  );
}

/** What the agents recorded, on every host. */
export function results(hosts: Host[]): { taskId: string; status: number; reply: string; host: string }[] {
  return hosts.flatMap((host) => {
    const file = `${host.home}/results.jsonl`;
    return existsSync(file)
      ? readFileSync(file, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line))
      : [];
  });
}

/** Values seen more than once. */
export function duplicates(values: string[]): string[] {
  const seen = new Set<string>();
  return [
    ...new Set(
      values.filter((value) => {
        if (seen.has(value)) return true;
        seen.add(value);
        return false;
      }),
    ),
  ];
}
