import type { CAC } from 'cac';
import { toTerminalText } from '../../core/text.js';
import { requestDaemon, toDaemonError } from '../../daemon/instance/client.js';
import { toPaths } from '../../store/disk/paths.js';
import type { Context } from '../frame/context.js';
import { metricsPath, ROUTES, toRouteLabel } from '../../net/protocol/routes.js';

/** Registers `svc daemon metrics`. */
export function registerDaemonMetrics(cli: CAC, ctx: Context): void {
  cli
    .command(
      'metrics',
      `Print the daemon's metrics in the Prometheus text format (${toRouteLabel(ROUTES.metrics)} on its socket)`,
    )
    .option('--json', 'Print them as JSON: one object per metric')
    .action((opts: { json?: boolean }) => printMetrics(ctx, { json: opts.json === true }));
}

/** `svc daemon metrics [--json]`: what a Prometheus scrape of the daemon reads (docs/metrics.md). */
async function printMetrics(ctx: Context, { json }: { json: boolean }): Promise<void> {
  const { status, body } = await requestDaemon(toPaths(ctx.root).socket, {
    method: ROUTES.metrics.method,
    path: metricsPath(json ? 'json' : 'text'),
  });
  if (status !== 200) throw toDaemonError(status, body);
  if (json) return ctx.json((body as { metrics: unknown }).metrics);
  // Label values come from task files (agent names): no control character reaches the terminal.
  ctx.io.stdout(toTerminalText(String(body), { multiline: true }));
}
