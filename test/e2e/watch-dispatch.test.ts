import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { toPaths } from '../../lib/store/disk/paths.js';
import { renderTask } from '../../lib/store/disk/task-file.js';
import { TOOLS } from '../../lib/tools/index.js';
import { writeOrg } from '../helpers/agents.js';
import { call, closeDaemons, startTestDaemon } from '../helpers/daemon.js';
import { accept, startFakeGateway } from '../helpers/fake-gateway.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';

// Only the watch path can dispatch here: the rescan and the poll are an hour apart, so a landing
// the watch path loses is never dispatched and the count comes up short.
const HOUR = 3_600_000;
const COUNT = 500;
/** How long a landing may go undispatched before it counts as lost (nothing else would ever pick it up). */
const LOST_AFTER_MS = 15_000;
const stops: (() => Promise<void>)[] = [];

/** A daemon in standalone mode against a gateway double that reports each spawn by task id. */
async function startWatchOnly() {
  const root = tempRoot();
  const waiting = new Map<string, (args: Record<string, unknown>) => void>();
  const spawned = new Map<string, number>();
  const gateway = await startFakeGateway((request) => {
    const id = String(request.body.args?.label);
    spawned.set(id, (spawned.get(id) ?? 0) + 1);
    waiting.get(id)?.(request.body.args ?? {});
    return accept(request);
  });
  stops.push(gateway.close);
  writeOrg(root, {
    agents: [{ id: 'gw', name: 'Gateway agent', maxConcurrent: 100_000 }],
    aof: {
      daemon: {
        gatewayUrl: gateway.url,
        bootWindowMs: 100,
        pollIntervalMs: HOUR,
        rescanIntervalMs: HOUR,
        maxConcurrentDispatches: 100_000,
      },
    },
  });
  await startTestDaemon(root, { tools: TOOLS, env: { SVC_GATEWAY_TOKEN: 'test' }, rescanIntervalMs: HOUR });
  await within(
    10_000,
    async () => ((await call(root, 'GET', '/status')).body as { mode: string }).mode === 'standalone',
    'standalone mode',
  );
  const staging = join(root, 'staging');
  mkdirSync(staging);
  let landed = 0;
  /** Renames a ready task into tasks/ready/ and resolves with the arguments of its spawn at the gateway. */
  const land = async (id: string): Promise<Record<string, unknown>> => {
    writeFileSync(join(staging, `${id}.md`), readyFile(id));
    const reached = new Promise<Record<string, unknown>>((resolve) => waiting.set(id, resolve));
    renameSync(join(staging, `${id}.md`), toPaths(root).taskFile('ready', id));
    landed++;
    let timer: NodeJS.Timeout | undefined;
    const lost = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new Error(
              `${id} landed in ready/ and was never dispatched: ${spawned.size} of ${landed} landings dispatched`,
            ),
          ),
        LOST_AFTER_MS,
      );
    });
    try {
      return await Promise.race([reached, lost]);
    } finally {
      clearTimeout(timer);
      waiting.delete(id);
    }
  };
  return { root, land, spawned };
}

function readyFile(id: string): string {
  const at = '2026-11-21T00:00:00.000Z';
  return renderTask(
    {
      schemaVersion: 1,
      id,
      project: 'watch',
      title: `Watch ${id}`,
      status: 'ready',
      priority: 'normal',
      routing: { agent: 'gw' },
      createdAt: at,
      updatedAt: at,
      lastTransitionAt: at,
      createdBy: 'test',
      dependsOn: [],
      metadata: {},
    },
    'Landed by rename.\n',
  );
}

function idOf(i: number): string {
  return `TASK-2026-11-21-${String(i).padStart(4, '0')}`;
}

const watch = suite('e2e.watch-dispatch');
watch.after.each(async () => {
  await closeDaemons();
  for (const stop of stops.splice(0)) await stop();
  cleanRoots();
});

watch(
  `${COUNT} tasks renamed into ready/, each right after the previous spawn reached the gateway, are all dispatched by the watch path, once each`,
  async () => {
    const { land, spawned } = await startWatchOnly();
    for (let i = 1; i <= COUNT; i++) await land(idOf(i));
    assert.is(spawned.size, COUNT, 'every landing dispatched');
    assert.ok(
      [...spawned.values()].every((n) => n === 1),
      'each dispatched once',
    );
  },
);

watch(
  `${COUNT} tasks renamed into ready/, each right after the previous one was completed with svc_task_complete, are all dispatched by the watch path`,
  async () => {
    const { root, land, spawned } = await startWatchOnly();
    for (let i = 1; i <= COUNT; i++) {
      const id = idOf(i);
      const args = await land(id);
      const sessionId = /sessionId: "([^"]+)"/.exec(String(args.task))?.[1];
      const { status, body } = await call(root, 'POST', '/v1/tool/invoke', {
        tool: 'svc_task_complete',
        params: { taskId: id, sessionId, summary: 'done' },
      });
      assert.is(status, 200, JSON.stringify(body));
    }
    assert.is(spawned.size, COUNT, 'every landing dispatched');
    assert.ok(
      [...spawned.values()].every((n) => n === 1),
      'each dispatched once',
    );
  },
);

watch.run();
