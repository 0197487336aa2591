// Several hosts on one tree: two daemons, each on its own sshfs mount of one tasks/ tree (a private
// sshd on 127.0.0.1), take a burst of svc_dispatch calls split across them. Every task must be
// done, dispatched and run exactly once, and no call may fail. SVC_MULTIHOST_TASKS sets the burst
// (default 300) for a longer run.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { STATUSES } from '../../lib/core/status.js';
import { toPaths } from '../../lib/store/paths.js';
import { initTree } from '../../lib/store/store.js';
import { writeOrg } from '../helpers/agents.js';
import { call, healthy, startChild, type ChildDaemon } from '../helpers/daemon.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';
import { fuseAbsent, mountSshfs, sshfsMissing, startSshServer, type Mount, type SshServer } from '../helpers/sshfs.js';

const TASKS = Number(process.env.SVC_MULTIHOST_TASKS ?? 300);
const HOSTS = ['a', 'b'] as const;

/** An agent that completes its task through its own daemon's socket and records the answer. */
const AGENT = `
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

interface Host {
  name: string;
  home: string;
  mount: Mount;
  daemon?: ChildDaemon;
}

const absent = fuseAbsent();
if (absent) {
  process.stderr.write(`\n${'!'.repeat(100)}\n!!! SKIPPED e2e.multihost (two daemons on sshfs mounts of one tree): ${absent}.\n!!! These tests need FUSE; they ran NOT AT ALL on this machine.\n${'!'.repeat(100)}\n\n`);
}

const multihost = suite('e2e.multihost');
multihost.after.each(cleanRoots);

for (const [label, options] of [['default sshfs options', []], ['dir_cache=no', ['dir_cache=no']]] as const) {
  (absent ? multihost.skip : multihost)(`two daemons on two sshfs mounts (${label}) of one tree: a burst of ${TASKS} svc_dispatch calls split across them is all done, each task dispatched and run once, no call failing`, async () => {
    const missing = await sshfsMissing();
    if (missing) throw new Error(missing);
    await withTwoHosts([...options], async (hosts, shared) => {
      const report = await burst(hosts, shared);
      const latency = await remoteLatency(hosts);
      process.stdout.write(`  (${label}: ${TASKS} tasks drained in ${(report.drainMs / 1000).toFixed(1)} s; remote change seen by the other daemon after ${latency.map((ms) => (ms / 1000).toFixed(1)).join(', ')} s)\n`);
    });
  });
}

/** Mounts one tree twice, starts a daemon on each mount, runs `fn`, and always tears everything down. */
async function withTwoHosts(options: string[], fn: (hosts: Host[], shared: string) => Promise<void>): Promise<void> {
  let server: SshServer | undefined;
  const hosts: Host[] = [];
  const shared = tempRoot('svc-shared-');
  try {
    await initTree(toPaths(shared));
    server = await startSshServer();
    for (const name of HOSTS) {
      const home = tempRoot(`svc-${name}-`);
      const mount = await mountSshfs(server, toPaths(shared).tasks, toPaths(home).tasks, options);
      hosts.push({ name, home, mount });
      writeOrg(home, orgOf(name, home));
    }
    for (const host of hosts) host.daemon = startChild(host.home);
    await Promise.all(hosts.map((host) => healthy(host.home, 30_000)));
    await fn(hosts, shared);
  } finally {
    await Promise.all(hosts.map(async (host) => {
      if (!host.daemon) return;
      host.daemon.child.kill('SIGTERM');
      const stopped = await Promise.race([host.daemon.exited.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 10_000))]);
      if (!stopped) await host.daemon.kill();
    }));
    for (const host of hosts) await host.mount.unmount();
    await server?.stop();
  }
}

function orgOf(name: string, home: string): Record<string, unknown> {
  const agent = (id: string, active: boolean) => ({
    id, name: id, active, maxConcurrent: 100, command: [process.execPath, '-e', AGENT], env: { RESULTS: `${home}/results.jsonl`, HOST_LABEL: name },
  });
  // `worker` runs on both hosts; `only-<host>` on its own host alone (inactive elsewhere).
  return {
    agents: [agent('worker', true), ...HOSTS.map((host) => agent(`only-${host}`, host === name))],
    aof: { daemon: { maxConcurrentDispatches: 1000, maxDispatchesPerDaemon: 8, rescanIntervalMs: 1000, pollIntervalMs: 5000, bootWindowMs: 200 } },
  };
}

/** The burst: TASKS concurrent svc_dispatch calls, alternating between the daemons; checks everything once drained. */
async function burst(hosts: Host[], shared: string): Promise<{ drainMs: number }> {
  const started = Date.now();
  const replies = await Promise.all(Array.from({ length: TASKS }, (_, i) =>
    call(hosts[i % 2]!.home, 'POST', '/v1/tool/invoke', { tool: 'svc_dispatch', params: { title: `Burst ${i}`, brief: `Task ${i} of the burst.`, agent: 'worker' } }, { timeoutMs: 300_000 })));
  process.stdout.write(`  (calls answered after ${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
  const failed = replies.filter((reply) => reply.status !== 200);
  assert.equal(failed.map((reply) => reply.body), [], 'every svc_dispatch call succeeds');
  const ids = replies.map((reply) => (reply.body as { result: { taskId: string } }).result.taskId);
  assert.is(new Set(ids).size, TASKS, 'every task has its own id');
  const done = `${toPaths(shared).tasks}/done`;
  await within(240_000, () => ids.every((id) => existsSync(`${done}/${id}.md`)), `${TASKS} tasks in done/ on the server`);
  const drainMs = Date.now() - started;
  await within(20_000, () => results(hosts).length >= TASKS, 'every agent recorded its answer');
  assertOnce(hosts, shared, ids);
  return { drainMs };
}

function assertOnce(hosts: Host[], shared: string, ids: string[]): void {
  const runs = results(hosts);
  const bad = runs.filter((run) => run.status !== 200);
  assert.equal(bad, [], 'every svc_task_complete call succeeds');
  assert.equal(duplicates(runs.map((run) => run.taskId)), [], 'each task run once');
  const events = hosts.flatMap((host) => readEvents(host.home));
  const dispatched = events.filter((event) => event.type === 'task.dispatched').map((event) => String(event.taskId));
  assert.equal(duplicates(dispatched), [], 'each task dispatched once');
  assert.equal(ids.filter((id) => !dispatched.includes(id)), [], 'every task dispatched');
  const daemons = hosts.map((host) => `${hostname()} ${host.daemon?.child.pid}`);
  const owners = events.filter((event) => event.type === 'task.dispatched').map((event) => { const { host, pid } = event.payload as { host?: string; pid?: number }; return `${host} ${pid}`; });
  assert.equal(owners.filter((owner) => !daemons.includes(owner)), [], 'every lease names the daemon that granted it');
  assert.equal(events.filter((event) => event.type === 'dispatch.failed' || event.type === 'task.invalid').map((event) => [event.type, event.taskId, event.payload]), []);
  const tasks = toPaths(shared).tasks;
  const stranded = STATUSES.filter((status) => status !== 'done').flatMap((status) => readdirSync(`${tasks}/${status}`).filter((name) => name.endsWith('.md')).map((name) => `${status}/${name}`));
  assert.equal(stranded, [], 'no task outside done/');
  for (const host of hosts) {
    const log = readFileSync(toPaths(host.home).daemonLog, 'utf8');
    assert.not.match(log, /"internal"|internal error/, `no internal error in the log of ${host.name}`);
  }
}

/** How long a task created through one daemon takes to reach the other (dispatched by an agent only it runs). */
async function remoteLatency(hosts: Host[]): Promise<number[]> {
  const [a, b] = hosts as [Host, Host];
  const samples = await Promise.all(Array.from({ length: 4 }, async (_, i) => {
    await new Promise((resolve) => setTimeout(resolve, i * 700)); // spread over the other daemon's rescan period
    const from = Date.now();
    const reply = await call(a.home, 'POST', '/v1/tool/invoke', { tool: 'svc_dispatch', params: { title: `For b ${i}`, brief: 'Only b runs this.', agent: 'only-b' } });
    assert.is(reply.status, 200, JSON.stringify(reply.body));
    const id = (reply.body as { result: { taskId: string } }).result.taskId;
    const event = (await within(60_000, () => readEvents(b.home).find((e) => e.type === 'task.dispatched' && e.taskId === id), `b dispatching ${id}`))!;
    return Date.parse(String(event.timestamp)) - from;
  }));
  return samples.sort((x, y) => x - y);
}

interface Event {
  timestamp: string;
  type: string;
  taskId?: string;
  payload: unknown;
}

function readEvents(home: string): Event[] {
  const dir = toPaths(home).events;
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => readFileSync(`${dir}/${name}`, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Event));
}

function results(hosts: Host[]): { taskId: string; status: number; reply: string; host: string }[] {
  return hosts.flatMap((host) => {
    const file = `${host.home}/results.jsonl`;
    return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line)) : [];
  });
}

function duplicates(values: string[]): string[] {
  const seen = new Set<string>();
  return [...new Set(values.filter((value) => (seen.has(value) ? true : (seen.add(value), false))))];
}

multihost.run();
