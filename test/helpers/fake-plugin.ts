import { requestDaemon } from '../../lib/daemon/instance/client.js';
import type { SpawnRequest } from '../../lib/core/spawn.js';
import { toPaths } from '../../lib/store/disk/paths.js';

/** What the fake plugin does with a spawn: by default the "agent" completes its task through the tools route. */
export type SpawnHandler = (spawn: SpawnRequest, socket: string) => Promise<{ ok: boolean; reason?: string }>;

/** Completes the spawned task over `/v1/tool/invoke`, as an agent inside the gateway would. */
export const completeTask: SpawnHandler = async (spawn, socket) => {
  await requestDaemon(socket, {
    method: 'POST',
    path: '/v1/tool/invoke',
    body: {
      tool: 'svc_task_complete',
      params: { taskId: spawn.taskId, sessionId: spawn.sessionId, summary: 'done in the gateway', actor: spawn.agent },
    },
  });
  return { ok: true };
};

/** A fake gateway plugin: holds `GET /v1/spawns/wait`, runs each spawn with `handle`, posts the result. */
export function startFakePlugin(root: string, handle: SpawnHandler = completeTask, id = 'svc') {
  const socket = toPaths(root).socket;
  const spawns: SpawnRequest[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const reply = await requestDaemon(
        socket,
        { method: 'GET', path: '/v1/spawns/wait' },
        { headers: { 'x-svc-plugin': id }, timeoutMs: 30_000 },
      ).catch(() => null);
      if (!reply) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        continue;
      }
      if (reply.status !== 200) continue;
      const spawn = reply.body as SpawnRequest;
      spawns.push(spawn);
      const result = await handle(spawn, socket).catch((err: unknown) => ({ ok: false, reason: String(err) }));
      await requestDaemon(socket, { method: 'POST', path: `/v1/spawns/${spawn.id}/result`, body: result }).catch(
        () => undefined,
      );
    }
  })();
  return {
    spawns,
    async stop() {
      running = false;
      await loop;
    },
  };
}
