import type { PluginService } from '../../lib/plugin/api.js';
import { createPlugin } from '../../lib/plugin/index.js';
import { createStore } from '../../lib/store/commit/store.js';
import { TOOLS } from '../../lib/tools/index.js';
import { call, closeDaemons } from '../helpers/daemon.js';
import { cleanRoots } from '../helpers/root.js';
import { fakeApi, type FakeApi, type RunScript } from './fake-api.js';

// The set-up of the plugin service tests (service*.test.ts): the plugin on a fake api, a real daemon.

export const FAST = { bootWindowMs: 300, pollIntervalMs: 200, spawnTimeoutMs: 3000 };
export const NAMES = TOOLS.map((tool) => tool.name);
export const started: PluginService[] = [];

/** Registers the plugin on a fake api in full mode and starts its service. */
export async function startPlugin(
  root: string,
  options: { script?: RunScript; config?: Record<string, unknown> } = {},
): Promise<{ api: FakeApi; service: PluginService }> {
  const api = fakeApi({
    config: { dataDir: root, dryRun: false, pollIntervalMs: 100, ...options.config },
    ...(options.script ? { script: options.script } : {}),
  });
  createPlugin({ environment: { env: {} }, retryMinMs: 20, waitSliceMs: 200 }).register(api);
  const service = api.services[0]!;
  await service.start({});
  started.push(service);
  return { api, service };
}

export async function dispatch(root: string, title: string, agent: string): Promise<string> {
  const { body } = await call(root, 'POST', '/v1/tool/invoke', {
    tool: 'svc_dispatch',
    params: { title, brief: 'Do it.', agent },
  });
  return (body as { result: { taskId: string } }).result.taskId;
}

export async function statusOf(root: string, id: string): Promise<string> {
  return (await createStore({ root }).get(id)).status;
}

export async function pluginsOf(root: string): Promise<string[]> {
  return ((await call(root, 'GET', '/status')).body as { plugins: { id: string }[] }).plugins.map((p) => p.id);
}

/** The kinds of the process's active handles (sockets, timers, ...). */
export function handles(): string[] {
  return process.getActiveResourcesInfo();
}

/** Handles in `now` beyond those in `before`. */
export function extra(before: string[], now: string[]): string[] {
  const left = [...before];
  return now.filter((kind) => {
    const at = left.indexOf(kind);
    if (at === -1) return true;
    left.splice(at, 1);
    return false;
  });
}

/** Stops the services and daemons a test started, and removes its roots. */
export async function cleanUp(): Promise<void> {
  for (const service of started.splice(0)) await service.stop?.({});
  await closeDaemons();
  cleanRoots();
}
