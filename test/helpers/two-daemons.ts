// Two daemons on one shared tasks/ tree, each with its own SVC_HOME whose tasks/ is its own mount of
// the tree (sshfs or GlusterFS): the harness of the multi-host tests. The burst they send is in
// two-daemons-load.ts, the checks they share in two-daemons-checks.ts.
import { writeOrg } from './agents.js';
import { healthy, startChild, type ChildDaemon } from './daemon.js';
import { tempRoot } from './root.js';

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
    for (const host of hosts)
      host.daemon = startChild(host.home, ['daemon', 'run'], { ...options.env, ...options.hostEnv?.[host.name] });
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
  const stopped = await Promise.race([
    host.daemon.exited.then(() => true),
    new Promise((resolve) => setTimeout(() => resolve(false), 10_000)),
  ]);
  if (!stopped) await host.daemon.kill();
}

// --- internal ---

function orgOf(name: string, home: string, options: TwoHostsOptions): Record<string, unknown> {
  const agent = (id: string, active: boolean) => ({
    id,
    name: id,
    active,
    maxConcurrent: 100,
    command: [process.execPath, '-e', COMPLETING_AGENT],
    env: { RESULTS: `${home}/results.jsonl`, HOST_LABEL: name },
  });
  // `worker` runs on both hosts; `only-<host>` on its own host alone (inactive elsewhere).
  const extra = options.org?.(name, home) ?? {};
  const { agents = [], aof = {}, ...rest } = extra as { agents?: unknown[]; aof?: Record<string, unknown> };
  return {
    ...rest,
    agents: [agent('worker', true), ...HOSTS.map((host) => agent(`only-${host}`, host === name)), ...agents],
    aof: {
      ...aof,
      daemon: {
        maxConcurrentDispatches: 1000,
        maxDispatchesPerDaemon: 8,
        rescanIntervalMs: 1000,
        pollIntervalMs: 5000,
        bootWindowMs: 200,
        ...options.daemon,
      },
    },
  };
}
