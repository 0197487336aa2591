// The load the multi-host tests put on two daemons: a burst of svc_dispatch calls split across
// them, and how long one daemon takes to dispatch what the other created.
import * as assert from 'uvu/assert';
import type { DaemonResponse } from '../../lib/daemon/instance/client.js';
import { call } from './daemon.js';
import { within } from './root.js';
import type { Host } from './two-daemons.js';
import { readEvents } from './two-daemons-checks.js';

/** Calls in flight at once per daemon in a burst: well under the daemon's connection limit (256), which refuses more. */
const IN_FLIGHT_PER_HOST = 64;

/** `count` concurrent svc_dispatch calls for `worker`, alternating between the hosts; all must succeed. Returns the ids. */
export async function dispatchBurst(hosts: Host[], count: number, label = 'Burst'): Promise<string[]> {
  const replies: DaemonResponse[] = new Array(count);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) {
      replies[i] = await call(
        hosts[i % hosts.length]!.home,
        'POST',
        '/v1/tool/invoke',
        { tool: 'svc_dispatch', params: { title: `${label} ${i}`, brief: `Task ${i} of the burst.`, agent: 'worker' } },
        { timeoutMs: 600_000 },
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(count, IN_FLIGHT_PER_HOST * hosts.length) }, worker));
  const failed = replies.filter((reply) => reply.status !== 200);
  assert.equal(
    failed.map((reply) => reply.body),
    [],
    'every svc_dispatch call succeeds',
  );
  const ids = replies.map((reply) => (reply.body as { result: { taskId: string } }).result.taskId);
  assert.is(new Set(ids).size, count, 'every task has its own id');
  return ids;
}

/** How long a task created through one daemon takes to be dispatched by the other (for an agent only it runs). */
export async function remoteLatency(hosts: Host[], samples = 4): Promise<number[]> {
  const [a, b] = hosts as [Host, Host];
  const found = await Promise.all(
    Array.from({ length: samples }, async (_, i) => {
      await new Promise((resolve) => setTimeout(resolve, i * 700)); // spread over the other daemon's rescan period
      const from = Date.now();
      const reply = await call(a.home, 'POST', '/v1/tool/invoke', {
        tool: 'svc_dispatch',
        params: { title: `For b ${i}`, brief: 'Only b runs this.', agent: 'only-b' },
      });
      assert.is(reply.status, 200, JSON.stringify(reply.body));
      const id = (reply.body as { result: { taskId: string } }).result.taskId;
      const event = (await within(
        60_000,
        () => readEvents(b.home).find((e) => e.type === 'task.dispatched' && e.taskId === id),
        `b dispatching ${id}`,
      ))!;
      return Date.parse(String(event.timestamp)) - from;
    }),
  );
  return found.sort((x, y) => x - y);
}
