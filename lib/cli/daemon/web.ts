import { spawn } from 'node:child_process';
import type { CAC } from 'cac';
import { isSvcError, SvcError } from '../../core/errors.js';
import { requestDaemon, toDaemonError } from '../../daemon/instance/client.js';
import type { WebAddress, WebRequest } from '../../net/protocol/bodies.js';
import { ROUTES } from '../../net/protocol/routes.js';
import { toPaths } from '../../store/disk/paths.js';
import type { Context } from '../frame/context.js';
import { toPort } from '../frame/port.js';

/** Registers `svc web`, the board in the browser (docs/web-board.md). */
export function registerWeb(cli: CAC, ctx: Context): void {
  cli
    .command(
      'web',
      'Print the URL of the web board on 127.0.0.1 (served by ' +
        'the running daemon; aof.daemon.webPort opens it at start)',
    )
    .option('--port <n>', 'Listen on this port (else aof.daemon.webPort, else any free port)')
    .option('--open', "Open the URL with the platform's opener (xdg-open, open, start)")
    .option('--as <name>', "Act as this name on the board's actions (default operator)")
    .option('--host <address>', 'Only 127.0.0.1 (or localhost) is served')
    .option('--json', 'Print {url, port} as JSON')
    .action((opts: { port?: unknown; open?: boolean; as?: unknown; host?: unknown; json?: boolean }) =>
      openWeb(ctx, opts),
    );
}

// --- internal ---

async function openWeb(
  ctx: Context,
  opts: { port?: unknown; open?: boolean; as?: unknown; host?: unknown; json?: boolean },
): Promise<void> {
  if (opts.host !== undefined && !['127.0.0.1', 'localhost'].includes(String(opts.host))) {
    throw new SvcError(
      'validation_error',
      `--host ${JSON.stringify(String(opts.host))} is refused: the web board listens on 127.0.0.1 only.`,
      'Reach it from another machine through an SSH tunnel: ssh -L 7420:127.0.0.1:<port> <host>.',
    );
  }
  const as = opts.as === undefined ? undefined : String(opts.as);
  if (as !== undefined && !/^[A-Za-z0-9._@-]{1,64}$/.test(as)) {
    throw new SvcError(
      'validation_error',
      `--as takes a name of letters, digits, . _ @ - (at most 64); found ${JSON.stringify(as)}.`,
      'For example --as alice.',
    );
  }
  const address = await askDaemon(ctx, opts.port === undefined ? undefined : toPort(opts.port));
  const url = as ? `${address.url}&as=${as}` : address.url;
  if (opts.json) ctx.json({ url, port: address.port });
  else
    ctx.print(
      `The svc web board: ${url}\n(served by the daemon while it runs; the token in the URL is in data/web.token)`,
    );
  if (opts.open) openUrl(url);
}

async function askDaemon(ctx: Context, port: number | undefined): Promise<WebAddress> {
  const socket = toPaths(ctx.root).socket;
  let reply: { status: number; body: unknown };
  try {
    reply = await requestDaemon(socket, {
      ...ROUTES.web,
      body: (port === undefined ? {} : { port }) satisfies WebRequest,
    });
  } catch (err) {
    if (!isSvcError(err, 'unavailable')) throw err;
    throw new SvcError(
      'unavailable',
      `No svc daemon runs on ${ctx.root}: the web board is served by the daemon.`,
      'Start it with `svc daemon start`, then run `svc web` again.',
    );
  }
  if (reply.status !== 200) throw toDaemonError(reply.status, reply.body);
  return reply.body as WebAddress;
}

function openUrl(url: string): void {
  const [command, ...args] =
    process.platform === 'darwin'
      ? ['open']
      : process.platform === 'win32'
        ? ['cmd', '/c', 'start', '""']
        : ['xdg-open'];
  const child = spawn(command!, [...args, url], { stdio: 'ignore', detached: true });
  child.on('error', () => undefined); // no opener: the URL is printed
  child.unref();
}
