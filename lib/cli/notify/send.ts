import { isSvcError, SvcError } from '../../core/errors.js';
import { requestDaemon, toDaemonError } from '../../daemon/instance/client.js';
import { findSubscription, toChartKey, toSubscriptions } from '../../daemon/notify/subscriptions.js';
import { readEnvFile } from '../../fs/env-file.js';
import { createNotifier, type Notifier } from '../../notify/notifier.js';
import type { NotifyRetryResponse, NotifyTestResponse } from '../../net/protocol/notify.js';
import { notifyPath } from '../../net/protocol/routes.js';
import { loadOrg } from '../../org/org-chart.js';
import type { Subscription } from '../../org/schema.js';
import { toPaths } from '../../store/disk/paths.js';
import { toTerminalText } from '../../core/text.js';
import type { Context } from '../frame/context.js';

/**
 * `svc notify retry <id|--all>`: through the daemon when it answers (it delivers now); else the deliveries are made
 * due now in the files, for the next daemon to send at its start.
 */
export async function retryDeliveries(ctx: Context, { which, json }: { which: string; json: boolean }): Promise<void> {
  const answer = await askDaemon<NotifyRetryResponse>(ctx, { action: 'retry', body: { which } });
  const shown = which === 'all' ? 'every delivery' : toTerminalText(which);
  const counted = (count: number) =>
    `${count} deliver${count === 1 ? 'y' : 'ies'}${which === 'all' ? '' : ` of ${shown}`} due now`;
  if (answer) {
    if (answer.count === 0) return noneFound(shown);
    if (json) return ctx.json({ count: answer.count, via: 'daemon', delivering: answer.delivering });
    return ctx.print(
      `${counted(answer.count)}: ` +
        (answer.delivering ? 'the daemon sends them now.' : 'no subscription of the org chart delivers them.'),
    );
  }
  const { notifier } = await localNotifier(ctx);
  const count = await notifier.retry(which);
  await notifier.stop();
  if (count === 0) return noneFound(shown);
  if (json) return ctx.json({ count, via: 'files', delivering: false });
  ctx.print(`${counted(count)}, back in data/outbox/: no daemon runs, so the next \`svc daemon start\` sends them.`);
}

/** `svc notify test <subscription>`: a sample through the daemon, or sent from here when no daemon runs. */
export async function sendTest(
  ctx: Context,
  { subscription, json }: { subscription: string; json: boolean },
): Promise<void> {
  const answer = await askDaemon<NotifyTestResponse>(ctx, { action: 'test', body: { subscription } });
  let result = answer?.result;
  if (!result) {
    const { notifier, subscriptions } = await localNotifier(ctx);
    findSubscription(subscriptions, subscription);
    result = await notifier.sendTest(subscription);
  }
  if (!result.ok) ctx.exitCode = 1;
  if (json) return ctx.json({ subscription, ...result, via: answer ? 'daemon' : 'direct' });
  const name = toTerminalText(subscription);
  const status = result.status === undefined ? '' : ` (HTTP ${result.status})`;
  if (result.ok) return ctx.print(`Sent a sample to ${name}${status} in ${result.ms} ms.`);
  ctx.print(
    `The sample to ${name} failed${status} after ${result.ms} ms: ${toTerminalText(result.error ?? 'no answer')}`,
  );
  ctx.io.stderr('hint: check the webhook URL or command in aof.notify, then run `svc notify test` again.\n');
}

// --- internal ---

/** The daemon's answer, or null when no daemon answers on the socket (or it is stopping). */
async function askDaemon<T>(ctx: Context, call: { action: 'retry' | 'test'; body: unknown }): Promise<T | null> {
  let reply: { status: number; body: unknown };
  try {
    reply = await requestDaemon(
      toPaths(ctx.root).socket,
      { method: 'POST', path: notifyPath(call.action), body: call.body },
      { timeoutMs: 120_000 },
    );
  } catch (err) {
    if (isSvcError(err, 'unavailable')) return null;
    throw err;
  }
  if (reply.status === 503) return null;
  if (reply.status !== 200) throw toDaemonError(reply.status, reply.body);
  return reply.body as T;
}

/** A notifier over the outbox that is not started: it moves files and sends tests, it delivers nothing else. */
async function localNotifier(ctx: Context): Promise<{ notifier: Notifier; subscriptions: Subscription[] }> {
  const paths = toPaths(ctx.root);
  const subscriptions = toSubscriptions(await loadOrg(paths.root));
  const notifier = createNotifier({
    paths,
    subscriptions: () => subscriptions,
    chartKey: () => toChartKey(subscriptions),
    env: () => ({ ...readEnvFile(paths.envFile), ...ctx.io.env }),
  });
  return { notifier, subscriptions };
}

function noneFound(shown: string): never {
  throw new SvcError(
    'not_found',
    `Nothing to retry: no pending or failed delivery matches ${shown}.`,
    'Run `svc notify list --failed` (and `svc notify list`) for the delivery ids.',
  );
}
