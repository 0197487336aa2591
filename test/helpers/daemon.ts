import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { main } from '../../lib/cli/main.js';
import { requestDaemon, type DaemonResponse, type RequestOptions } from '../../lib/daemon/instance/client.js';
import { startDaemon, type Daemon, type DaemonOptions } from '../../lib/daemon/daemon.js';
import type { Status } from '../../lib/core/status.js';
import { toPaths } from '../../lib/store/disk/paths.js';
import { initTree } from '../../lib/store/commit/store.js';
import { renderTask } from '../../lib/store/disk/task-file.js';
import type { ToolContext, ToolDef } from '../../lib/tools/registry.js';
import { within } from './root.js';

/** A door a test opens: tools wait on it to stay in flight. */
export function gate(): { promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** `test_wait` opens `entered`, then waits on `wait`; tests replace both. */
export const gates = { entered: gate(), wait: gate() };

/** Small tools for daemon tests: the daemon serves whatever list it is given. */
export const TEST_TOOLS = [
  {
    name: 'test_echo',
    description: 'echo',
    params: z.strictObject({ text: z.string() }),
    handler: async (p: { text: string }) => ({ echo: p.text }),
  },
  {
    name: 'test_create',
    description: 'create a task through the store and tell the index',
    params: z.strictObject({ title: z.string(), status: z.enum(['backlog', 'ready']).optional() }),
    handler: async (p: { title: string; status?: 'backlog' | 'ready' }, ctx: ToolContext) => {
      const stored = await ctx.store.create({ title: p.title, status: p.status ?? 'backlog', createdBy: 'test' });
      await ctx.onCommitted?.([stored.task.id]);
      return { taskId: stored.task.id };
    },
  },
  {
    name: 'test_move',
    description: 'move a task through the commit protocol and tell the index',
    params: z.strictObject({ taskId: z.string(), status: z.enum(['backlog', 'ready', 'blocked']) }),
    handler: async (p: { taskId: string; status: 'backlog' | 'ready' | 'blocked' }, ctx: ToolContext) => {
      const result = await ctx.store.commit(
        p.taskId,
        (cur) => ({ task: cur.task, body: cur.body, status: p.status }),
        'test',
      );
      await ctx.onCommitted?.([p.taskId]);
      return { status: result.after.status };
    },
  },
  {
    name: 'test_list',
    description: 'ids and statuses from the index',
    params: z.strictObject({}),
    handler: async (_p: object, ctx: ToolContext) =>
      [...(ctx.index?.summaries() ?? [])].map((s) => `${s.id} ${s.status}`).sort(),
  },
  {
    name: 'test_wait',
    description: 'waits on gates.wait',
    params: z.strictObject({}),
    handler: async () => {
      gates.entered.open();
      await gates.wait.promise;
      return { waited: true };
    },
  },
  {
    name: 'test_crash',
    description: 'throws a plain error',
    params: z.strictObject({}),
    handler: async () => {
      throw new Error('boom');
    },
  },
] as unknown as ToolDef[];

const daemons = new Set<Daemon>();

/** Starts an in-process daemon on `root` with short holds; closed by `closeDaemons`. */
export async function startTestDaemon(root: string, options: Partial<DaemonOptions> = {}): Promise<Daemon> {
  const daemon = await startDaemon({
    root,
    tools: TEST_TOOLS,
    spawnWaitMs: 300,
    pluginGraceMs: 300,
    rescanIntervalMs: 500,
    drainTimeoutMs: 3000,
    ...options,
  });
  daemons.add(daemon);
  return daemon;
}

/** Closes every daemon started by `startTestDaemon` and kills every child daemon. */
export async function closeDaemons(): Promise<void> {
  await Promise.all([...daemons].map((daemon) => daemon.close()));
  daemons.clear();
  await Promise.all([...children].map((child) => child.kill()));
}

/** One request to the daemon of `root`. */
export function call(
  root: string,
  method: string,
  path: string,
  body?: unknown,
  options?: RequestOptions,
): Promise<DaemonResponse> {
  return requestDaemon(toPaths(root).socket, { method, path, body }, options);
}

/** Runs `svc <argv>` in-process with exactly this environment. */
export async function runSvc(
  env: Record<string, string>,
  ...argv: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), env });
  return { code, stdout, stderr };
}

/** A `svc daemon run` child process (the built `bin/svc.js`). */
export interface ChildDaemon {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILLs it (if running) and waits until it is gone. */
  kill(): Promise<void>;
}

const children = new Set<ChildDaemon>();
const bin = fileURLToPath(new URL('../../bin/svc.js', import.meta.url));

/** Starts `node bin/svc.js <args>` (default `daemon run`) on `root`, with `env` added; needs `npm run build` first. */
export function startChild(
  root: string,
  args: string[] = ['daemon', 'run'],
  env: Record<string, string> = {},
): ChildDaemon {
  const child = spawn(process.execPath, [bin, ...args], {
    env: { ...process.env, SVC_HOME: root, DEBUG: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  const handle: ChildDaemon = {
    child,
    exited,
    output: () => output,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
      children.delete(handle);
    },
  };
  children.add(handle);
  return handle;
}

/** Waits until the daemon of `root` answers `/healthz` with 200 and its pid file names it; returns the pid. */
export async function healthy(root: string, ms = 15_000): Promise<number> {
  return within(
    ms,
    async () => {
      const { status } = await call(root, 'GET', '/healthz');
      const { pid } = (await call(root, 'GET', '/status')).body as { pid: number };
      return status === 200 && readFileSync(toPaths(root).pidFile, 'utf8').trim() === String(pid) ? pid : 0;
    },
    `a healthy daemon on ${root}`,
  );
}

/** Waits until the daemon of `root` has run `n` more scheduler polls (murmur and SLA checks run on each). */
export async function afterPolls(root: string, n = 3): Promise<void> {
  const seen = new Set<string>();
  await within(
    20_000,
    async () => {
      const { body } = await call(root, 'GET', '/status');
      const at = (body as { scheduler: { lastPollAt: string | null } }).scheduler.lastPollAt;
      if (at) seen.add(at);
      return seen.size > n;
    },
    `${n} polls`,
  );
}

/** Writes `count` valid task files directly (fixtures, no store): ids `TASK-2026-01-01-<n>`. */
export async function writeTaskFiles(
  root: string,
  count: number,
  statusOf: (i: number) => Status = () => 'backlog',
  from = 1,
): Promise<string[]> {
  const paths = toPaths(root);
  await initTree(paths);
  const ids: string[] = [];
  for (let i = from; i < from + count; i++) {
    const id = `TASK-2026-01-01-${String(i).padStart(3, '0')}`;
    const status = statusOf(i);
    writeFileSync(paths.taskFile(status, id), taskText(id, status, `Task ${i}`));
    ids.push(id);
  }
  return ids;
}

/** The text of a valid task file. */
export function taskText(id: string, status: Status, title: string): string {
  const stamp = '2026-01-01T00:00:00.000Z';
  return renderTask(
    {
      schemaVersion: 1,
      id,
      project: 'test',
      title,
      status,
      priority: 'normal',
      routing: { agent: 'dev' },
      createdAt: stamp,
      updatedAt: stamp,
      lastTransitionAt: stamp,
      createdBy: 'test',
      dependsOn: [],
      metadata: {},
    },
    `Body of ${title}\n`,
  );
}
