import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createCommandAdapter } from '../../lib/adapters/command.js';
import { startScheduler } from '../../lib/engine/scheduler.js';
import { createListingSource } from '../../lib/engine/snapshot.js';
import { loadOrg } from '../../lib/org/org-chart.js';
import { readEvents } from '../../lib/store/events/log.js';
import { setStatus } from '../../lib/store/changes/ops.js';
import { createStore } from '../../lib/store/commit/store.js';
import { writeOrg } from '../helpers/agents.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';

// How a local agent's process ended is in each failed attempt's event and in the deadletter alert.
const CASES = [
  {
    how: 'exits 1',
    script: 'process.exit(1)',
    fields: { exitCode: 1 },
    text: 'ended_without_completion (exit code 1)',
  },
  {
    how: 'exits 0 without completing',
    script: 'process.exit(0)',
    fields: { exitCode: 0 },
    text: 'ended_without_completion (exit code 0 without completing)',
  },
  {
    how: 'is killed by a signal',
    script: 'process.kill(process.pid, "SIGKILL")',
    fields: { signal: 'SIGKILL' },
    text: 'ended_without_completion (killed by SIGKILL)',
  },
];

const failed = suite('engine.recordFailure and formatDeadletterAlert');
failed.after.each(cleanRoots);

for (const { how, script, fields, text } of CASES) {
  failed(
    `an agent that ${how}: dispatch.failed and task.deadletter carry it, and the alert and the transition say it`,
    async () => {
      const root = tempRoot();
      writeOrg(root, {
        agents: [{ id: 'dev', name: 'Dev', command: [process.execPath, '-e', script] }],
        aof: { daemon: { retryBackoffMs: [20] } },
      });
      const store = createStore({ root });
      const created = await store.create({ title: 'Fails', createdBy: 'test', routing: { agent: 'dev' } });
      const id = created.task.id;
      await setStatus(store, id, { to: 'ready', actor: 'test' });
      const alerts: string[] = [];
      const adapter = createCommandAdapter({
        root,
        socketPath: `${root}/data/daemon.sock`,
        loadOrg: () => loadOrg(root),
        baseEnv: process.env,
        logFile: `${root}/data/logs/agents.log`,
      });
      const scheduler = startScheduler({
        store,
        source: createListingSource(store),
        adapters: { command: adapter },
        loadOrg: () => loadOrg(root),
        mode: () => 'standalone',
        pluginAttached: () => false,
        log: () => undefined,
        alert: (alert) => alerts.push(alert),
      });
      try {
        scheduler.schedule();
        const events = await within(
          20_000,
          async () => {
            const found = await readEvents(root, { taskId: id });
            return found.some((e) => e.type === 'task.deadletter') && found;
          },
          'task.deadletter logged',
        );
        const failures = events.filter((e) => e.type === 'dispatch.failed');
        assert.is(failures.length, 3);
        for (const event of failures)
          assert.equal(event.payload, { ...event.payload, reason: 'ended_without_completion', ...fields });
        const dead = events.find((e) => e.type === 'task.deadletter');
        assert.equal(dead?.payload, {
          reason: 'max_dispatch_failures',
          failureCount: 3,
          lastFailureReason: 'ended_without_completion',
          ...fields,
        });
        assert.ok(alerts.join('\n').includes(`last reason: ${text}, agent: dev`), alerts.join('\n'));
        const back = events.find((e) => e.type === 'task.transitioned' && e.payload.from === 'in-progress');
        assert.is(back?.payload.reason, `dispatch failed: ${text}`);
      } finally {
        await scheduler.close();
        await scheduler.drain();
        adapter.stop();
      }
    },
  );
}

failed.run();
