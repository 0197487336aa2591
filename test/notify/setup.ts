import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { SvcEvent } from '../../lib/core/events.js';
import type { NotifyTask } from '../../lib/notify/notification.js';
import {
  createNotifier,
  type DeliveryOutcome,
  type Notifier,
  type NotifierOptions,
} from '../../lib/notify/notifier.js';
import { type Subscription, SubscriptionSchema } from '../../lib/org/schema.js';
import { type Paths, toPaths } from '../../lib/store/disk/paths.js';
import { tempRoot } from '../helpers/root.js';

/** A subscription as the org chart would give it (defaults applied), with small delays for tests. */
export function subscription(fields: Record<string, unknown>): Subscription {
  return SubscriptionSchema.parse({
    events: ['task.deadletter', 'gate.awaiting', 'sla.violation', 'budget.exceeded', 'watchdog.critical'],
    retry: { initialMs: 20, maxMs: 100, giveUpAfterMs: 60_000 },
    timeoutMs: 2_000,
    coalesceMs: 0,
    ...fields,
  });
}

/** A notifier over a fresh root's outbox, its outcomes and log lines recorded; `chartKey` and subscriptions movable. */
export function notifierOf(subs: Subscription[], extra: Partial<NotifierOptions> & { paths?: Paths } = {}) {
  const paths = extra.paths ?? toPaths(tempRoot('svc-notify-'));
  const outcomes: DeliveryOutcome[] = [];
  const logs: string[] = [];
  const state = { subs, chartKey: 'chart-1', env: { SVC_NOTIFY_SECRET: 'sesame' } as NodeJS.ProcessEnv };
  const notifier: Notifier = createNotifier({
    paths,
    subscriptions: () => state.subs,
    chartKey: () => state.chartKey,
    env: () => state.env,
    onOutcome: (o) => outcomes.push(o),
    log: (line) => logs.push(line),
    ...extra,
  });
  return { notifier, paths, outcomes, logs, state };
}

/** The file names of the outbox (`failed/` with `failed`), deliveries only. */
export function outboxFiles(paths: Paths, failed = false): string[] {
  try {
    const dir = join(paths.data, 'outbox', ...(failed ? ['failed'] : []));
    return readdirSync(dir).filter((n) => /^[0-9a-f-]{36}\.json$/.test(n));
  } catch {
    return [];
  }
}

let seq = 0;

/** An event of the log as the daemon would offer it, and its task. */
export function eventOf(type: SvcEvent['type'], taskId: string, payload: Record<string, unknown> = {}): SvcEvent {
  seq++;
  return {
    timestamp: new Date(Date.UTC(2026, 10, 29, 4, 0, 0, seq)).toISOString(),
    type,
    taskId,
    actor: 'svc',
    payload,
  };
}

export function taskOf(id: string, fields: Partial<NotifyTask> = {}): NotifyTask {
  return {
    id,
    title: `Task ${id}`,
    status: 'deadletter',
    priority: 'normal',
    agent: 'coder',
    team: 'core',
    project: 'demo',
    ...fields,
  };
}

/** A deadletter event as the scheduler records it. */
export function deadletter(id: string): SvcEvent {
  return eventOf('task.deadletter', id, {
    reason: 'max_dispatch_failures',
    failureCount: 3,
    lastFailureReason: 'exit 1',
  });
}
