import type { CAC } from 'cac';
import { SvcError } from '../../core/errors.js';
import { listOutbox } from '../../notify/outbox.js';
import { toPaths } from '../../store/disk/paths.js';
import type { Context } from '../frame/context.js';
import { toUsageError } from '../frame/usage.js';
import { formatOutbox } from './format.js';
import { retryDeliveries, sendTest } from './send.js';

/** Registers `svc notify list|retry|test` (docs/notifications.md, "Commands"). */
export function registerNotify(cli: CAC, ctx: Context): void {
  cli
    .command('list', 'List the notifications waiting in data/outbox/ (--failed: those given up, in failed/)')
    .option('--failed', 'List data/outbox/failed/ instead')
    .option('--json', 'Print the outbox files as JSON')
    .action(async (opts: { failed?: boolean; json?: boolean }) => {
      const entries = await listOutbox(toPaths(ctx.root), { failed: opts.failed === true });
      if (opts.json) return ctx.json(entries);
      for (const line of formatOutbox(entries, { failed: opts.failed === true, now: new Date() })) ctx.print(line);
    });
  cli
    .command('retry [id]', 'Send a delivery (or every delivery of a subscription) now, failed ones included')
    .option('--all', 'Every failed and pending delivery')
    .option('--json', 'Print the outcome as JSON')
    .action(async (id: string | undefined, opts: { all?: boolean; json?: boolean }) => {
      if ((id === undefined) === (opts.all !== true))
        throw toUsageError(
          new SvcError(
            'validation_error',
            id === undefined
              ? 'svc notify retry needs a delivery id or --all.'
              : 'Give a delivery id or --all, not both.',
            'Run `svc notify list --failed` for the ids, then `svc notify retry <id>` (or `svc notify retry --all`).',
          ),
        );
      await retryDeliveries(ctx, { which: id ?? 'all', json: opts.json === true });
    });
  cli
    .command('test <subscription>', 'Send a sample notification to one subscription now and print the outcome')
    .option('--json', 'Print the outcome as JSON')
    .action((subscription: string, opts: { json?: boolean }) =>
      sendTest(ctx, { subscription, json: opts.json === true }),
    );
}
