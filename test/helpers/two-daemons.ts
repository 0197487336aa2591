// Two daemons on one shared tasks/ tree, each with its own SVC_HOME whose tasks/ is its own mount of
// the tree (sshfs or GlusterFS): the harness of the multi-host tests, and the checks they share.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import * as assert from 'uvu/assert';
import { STATUSES } from '../../lib/core/status.js';
import type { DaemonResponse } from '../../lib/daemon/instance/client.js';
import { toPaths } from '../../lib/store/disk/paths.js';
import { writeOrg } from './agents.js';
import { call, healthy, startChild, type ChildDaemon } from './daemon.js';
import { tempRoot, untilCount, within } from './root.js';

export const HOSTS = ['a', 'b'] as const;

/** An agent that completes its task through its own daemon's socket and records the answer. */
export const COMPLETING_AGENT = `
  const http = require('node:http'), fs = require('node:fs');
  const params = { taskId: process.env.SVC_TASK_ID, sessionId: process.env.SVC_SESSION_ID, summary: 'done on ' + process.env.HOST_LABEL, actor: process.env.SVC_AGENT };
  const body = JSON.stringify({ tool: 'svc_task_complete', params });
  const record = (status, reply) => fs.appendFileSync(process.env.RESULTS, JSON.stringify({ taskId: params.taskId, sessionId: params.sessionId, host: process.env.HOST_LABEL, status, reply, at: Date.now() }) + '\\n');
  const req = http.request({ socketPath: process.env.SVC_SOCKET, path: '/v1/tool/invoke', method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
    let text = '';
    res.on('data', (chunk) => (text += chunk));
    res.on('end', () => (record(res.statusCode, text), process.exit(res.statusCode === 200 ? 0 : 1)));
  });
  req.on('error', (err) => (record(0, String(err)), process.exit(1)));
  req.end(body);
`;

/** One host: its SVC_HOME (whose tasks/ is its mount of the shared tree) and its daemon. */
export interface Host {
  name: string;
  home: string;
  mount: { path: string; unmount(): Promise<void> };
  daemon?: ChildDaemon;
}

/** How to set the hosts up: mount the shared tree at a home's tasks/, and what to add to each org chart. */
export interface TwoHostsOptions {
  mount(home: string, name: string): Promise<{ path: string; unmount(): Promise<void> }>;
  /** Merged into `aof.daemon` of each org chart. */
  daemon?: Record<string, unknown>;
  /** Further org chart keys (teams, workflows) of each host. */
  org?: (name: string, home: string) => Record<string, unknown>;
  /** Further environment of each daemon. */
  env?: Record<string, string>;
  /** Further environment of one host's daemon, by host name. */
  hostEnv?: Record<string, Record<string, string>>;
}

/** Mounts the tree once per host, starts a daemon on each, runs `fn`, and always stops the daemons and unmounts. */
export async function withTwoHosts(options: TwoHostsOptions, fn: (hosts: Host[]) => Promise<void>): Promise<void> {
  const hosts: Host[] = [];
  try {
    for (const name of HOSTS) {
      const home = tempRoot(`svc-${name}-`);
      const mount = await options.mount(home, name);
      hosts.push({ name, home, mount });
      writeOrg(home, orgOf(name, home, options));
    }
    for (const host of hosts) host.daemon = startChild(host.home, ['daemon', 'run'], { ...options.env, ...options.hostEnv?.[host.name] });
    await Promise.all(hosts.map((host) => healthy(host.home, 30_000)));
    await fn(hosts);
  } finally {
    await Promise.all(hosts.map((host) => stopDaemon(host)));
    for (const host of hosts) await host.mount.unmount();
  }
}

/** Stops a host's daemon (SIGTERM, SIGKILL after 10 s). */
export async function stopDaemon(host: Host): Promise<void> {
  if (!host.daemon) return;
  host.daemon.child.kill('SIGTERM');
  const stopped = await Promise.race([host.daemon.exited.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 10_000))]);
  if (!stopped) await host.daemon.kill();
}

/** Calls in flight at once per daemon in a burst: well under the daemon's connection limit (256), which refuses more. */
const IN_FLIGHT_PER_HOST = 64;

/** `count` concurrent svc_dispatch calls for `worker`, alternating between the hosts; all must succeed. Returns the ids. */
export async function dispatchBurst(hosts: Host[], count: number, label = 'Burst'): Promise<string[]> {
  const replies: DaemonResponse[] = new Array(count);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) {
      replies[i] = await call(hosts[i % hosts.length]!.home, 'POST', '/v1/tool/invoke', { tool: 'svc_dispatch', params: { title: `${label} ${i}`, brief: `Task ${i} of the burst.`, agent: 'worker' } }, { timeoutMs: 600_000 });
    }
  };
  await Promise.all(Array.from({ length: Math.min(count, IN_FLIGHT_PER_HOST * hosts.length) }, worker));
  const failed = replies.filter((reply) => reply.status !== 200);
  assert.equal(failed.map((reply) => reply.body), [], 'every svc_dispatch call succeeds');
  const ids = replies.map((reply) => (reply.body as { result: { taskId: string } }).result.taskId);
  assert.is(new Set(ids).size, count, 'every task has its own id');
  return ids;
}

/**
 * Waits until every id is in done/ of the shared `tasks` tree (failing only when none arrives for
 * `stallMs`); a failure says where the missing tasks are, what the hosts moved to data/conflicts/,
 * and what their daemons logged about them.
 */
export async function untilDone(tasks: string, ids: string[], hosts: Host[], stallMs = 60_000): Promise<void> {
  const wanted = new Set(ids.map((id) => `${id}.md`));
  try {
    await untilCount(ids.length, () => readdirSync(`${tasks}/done`).filter((name) => wanted.has(name)).length, stallMs, `${ids.length} tasks in done/`);
  } catch (err) {
    const done = new Set(readdirSync(`${tasks}/done`));
    const missing = ids.filter((id) => !done.has(`${id}.md`));
    const where = missing.map((id) => `${id}: ${STATUSES.filter((status) => existsSync(`${tasks}/${status}/${id}.md`)).join(', ') || 'in no status directory'}`);
    const conflicts = hosts.map((host) => `${host.name}: ${existsSync(toPaths(host.home).conflicts) ? readdirSync(toPaths(host.home).conflicts).join(', ') : ''}`);
    const logs = hosts.map((host) => `${host.name}:\n${readFileSync(toPaths(host.home).daemonLog, 'utf8').split('\n').filter((line) => missing.some((id) => line.includes(id))).slice(-15).join('\n')}`);
    throw new Error(`${(err as Error).message}\nmissing: ${where.join('; ')}\nconflicts: ${conflicts.join('; ')}\nlogs:\n${logs.join('\n')}`);
  }
}

/**
 * Exactly once: every task dispatched once and run once, every agent's completion answered 200,
 * every lease granted by one of `daemons` (`host pid`), no dispatch failure or invalid task, no
 * task left outside done/, nothing in data/conflicts/, and no internal error in a daemon's log.
 */
export async function assertOnce(hosts: Host[], tasks: string, ids: string[], daemons = hosts.map((host) => `${hostname()} ${host.daemon?.child.pid}`)): Promise<void> {
  await within(20_000, () => ids.every((id) => results(hosts).some((run) => run.taskId === id)), 'every agent recorded its answer');
  const runs = results(hosts);
  assert.equal(runs.filter((run) => run.status !== 200), [], 'every svc_task_complete call succeeds');
  assert.equal(duplicates(runs.map((run) => run.taskId)), [], 'each task run once');
  const events = hosts.flatMap((host) => readEvents(host.home));
  const dispatched = events.filter((event) => event.type === 'task.dispatched').map((event) => String(event.taskId));
  assert.equal(duplicates(dispatched), [], 'each task dispatched once');
  assert.equal(ids.filter((id) => !dispatched.includes(id)), [], 'every task dispatched');
  const owners = events.filter((event) => event.type === 'task.dispatched').map((event) => { const { host, pid } = event.payload as { host?: string; pid?: number }; return `${host} ${pid}`; });
  assert.equal(owners.filter((owner) => !daemons.includes(owner)), [], 'every lease names a daemon that granted it');
  assert.equal(events.filter((event) => event.type === 'dispatch.failed' || event.type === 'task.invalid').map((event) => [event.type, event.taskId, event.payload]), []);
  const stranded = STATUSES.filter((status) => status !== 'done').flatMap((status) => readdirSync(`${tasks}/${status}`).filter((name) => name.endsWith('.md')).map((name) => `${status}/${name}`));
  assert.equal(stranded, [], 'no task outside done/');
  for (const host of hosts) {
    const conflicts = toPaths(host.home).conflicts;
    assert.equal(existsSync(conflicts) ? readdirSync(conflicts) : [], [], `nothing moved to data/conflicts/ by ${host.name}`);
    const log = readFileSync(toPaths(host.home).daemonLog, 'utf8');
    assert.not.match(log, /"internal"|internal error/, `no internal error in the log of ${host.name}`);
    assert.not.match(host.daemon?.output() ?? '', /Assertion failed|Aborted|core dumped/, `daemon ${host.name} did not abort`);
  }
}

/** How long a task created through one daemon takes to be dispatched by the other (for an agent only it runs). */
export async function remoteLatency(hosts: Host[], samples = 4): Promise<number[]> {
  const [a, b] = hosts as [Host, Host];
  const found = await Promise.all(Array.from({ length: samples }, async (_, i) => {
    await new Promise((resolve) => setTimeout(resolve, i * 700)); // spread over the other daemon's rescan period
    const from = Date.now();
    const reply = await call(a.home, 'POST', '/v1/tool/invoke', { tool: 'svc_dispatch', params: { title: `For b ${i}`, brief: 'Only b runs this.', agent: 'only-b' } });
    assert.is(reply.status, 200, JSON.stringify(reply.body));
    const id = (reply.body as { result: { taskId: string } }).result.taskId;
    const event = (await within(60_000, () => readEvents(b.home).find((e) => e.type === 'task.dispatched' && e.taskId === id), `b dispatching ${id}`))!;
    return Date.parse(String(event.timestamp)) - from;
  }));
  return found.sort((x, y) => x - y);
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
  return readdirSync(dir).flatMap((name) => readFileSync(`${dir}/${name}`, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Event));
}

/** What the agents recorded, on every host. */
export function results(hosts: Host[]): { taskId: string; status: number; reply: string; host: string }[] {
  return hosts.flatMap((host) => {
    const file = `${host.home}/results.jsonl`;
    return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line)) : [];
  });
}

/** Values seen more than once. */
export function duplicates(values: string[]): string[] {
  const seen = new Set<string>();
  return [...new Set(values.filter((value) => (seen.has(value) ? true : (seen.add(value), false))))];
}

// --- internal ---

function orgOf(name: string, home: string, options: TwoHostsOptions): Record<string, unknown> {
  const agent = (id: string, active: boolean) => ({
    id, name: id, active, maxConcurrent: 100, command: [process.execPath, '-e', COMPLETING_AGENT], env: { RESULTS: `${home}/results.jsonl`, HOST_LABEL: name },
  });
  // `worker` runs on both hosts; `only-<host>` on its own host alone (inactive elsewhere).
  const extra = options.org?.(name, home) ?? {};
  const { agents = [], aof = {}, ...rest } = extra as { agents?: unknown[]; aof?: Record<string, unknown> };
  return {
    ...rest,
    agents: [agent('worker', true), ...HOSTS.map((host) => agent(`only-${host}`, host === name)), ...agents],
    aof: { ...aof, daemon: { maxConcurrentDispatches: 1000, maxDispatchesPerDaemon: 8, rescanIntervalMs: 1000, pollIntervalMs: 5000, bootWindowMs: 200, ...options.daemon } },
  };
}
