import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { requestDaemon } from '../../daemon/instance/client.js';
import { toPaths } from '../../store/disk/paths.js';
import { BOARD_STATUSES, renderBoard, toBoardColumns, type BoardColumn } from './render.js';
import type { Context } from '../frame/context.js';
import { formatInvalid } from '../output/format.js';
import { onInterrupt } from '../frame/interrupt.js';
import { listRows, type Listing } from '../frame/rows.js';
import type { TaskChangesResponse } from '../../net/protocol/bodies.js';
import { ROUTES, taskChangesPath } from '../../net/protocol/routes.js';

/** How often the board is read again when no daemon runs (there is nobody to say what moved). */
export const WATCH_POLL_MS = 1000;

/**
 * `svc board --watch`: draws the board, then again each time it changes, until Ctrl-C (or a closed
 * stdout). With a daemon, it waits on the daemon's change feed (`GET /v1/tasks/changes`) and reads
 * its index; without one, it reads the files every second. On a terminal each frame redraws the
 * screen in place; piped, each changed frame is printed after a blank line (with `--json`, one JSON
 * object a line).
 */
export async function watchBoard(
  ctx: Context,
  options: { json: boolean; toJson: (columns: BoardColumn[], listing: Listing) => unknown },
): Promise<void> {
  const { signal, dispose } = onInterrupt();
  const terminal = ctx.io.tty === true && !options.json;
  let last: string | null = null;
  let version = -1;
  if (terminal) ctx.io.stdout(`${HIDE_CURSOR}${HOME}${CLEAR_DOWN}`);
  try {
    while (!signal.aborted) {
      version = await currentVersion(ctx, version, signal);
      if (signal.aborted) break;
      const listing = await listRows(ctx, BOARD_STATUSES);
      const columns = toBoardColumns(listing.rows);
      const frame = options.json
        ? JSON.stringify(options.toJson(columns, listing))
        : [
            ...renderBoard(columns, { width: toWidth(ctx, { terminal }), paint: ctx.paint }),
            ...formatInvalid(listing.invalid),
          ].join('\n');
      if (frame !== last)
        draw(ctx, { frame, terminal, json: options.json, first: last === null, source: listing.source });
      last = frame;
      if (listing.source === 'files' || version < 0)
        await sleep(WATCH_POLL_MS, undefined, { signal }).catch(() => undefined);
    }
  } finally {
    if (terminal) ctx.io.stdout(SHOW_CURSOR);
    dispose();
  }
}

// --- internal ---

const HOME = '\u001b[H';
const CLEAR_LINE = '\u001b[K';
const CLEAR_DOWN = '\u001b[J';
const HIDE_CURSOR = '\u001b[?25l';
const SHOW_CURSOR = '\u001b[?25h';
/** How long one long-poll of the daemon's change feed is held. */
const WAIT_MS = 20_000;

/**
 * The daemon's change counter once it has passed `after` (a long-poll: returns at once on the first
 * call, else when a task moves or after `WAIT_MS`); -1 when no daemon answers (the files are polled).
 */
async function currentVersion(ctx: Context, after: number, signal: AbortSignal): Promise<number> {
  const { socket } = toPaths(ctx.root);
  if (!existsSync(socket)) return -1;
  try {
    const reply = await requestDaemon(
      socket,
      { method: ROUTES.taskChanges.method, path: taskChangesPath(after, after < 0 ? 0 : WAIT_MS) },
      { timeoutMs: WAIT_MS + 10_000, signal },
    );
    const version = (reply.body as Partial<TaskChangesResponse> | null)?.version;
    return reply.status === 200 && typeof version === 'number' ? version : -1;
  } catch {
    return -1; // gone, stopping or too old to have the feed: read the files until it is back
  }
}

function draw(
  ctx: Context,
  options: { frame: string; terminal: boolean; json: boolean; first: boolean; source: Listing['source'] },
): void {
  const { frame, terminal } = options;
  if (options.json) return ctx.io.stdout(`${frame}\n`);
  const time = new Date().toTimeString().slice(0, 8);
  const from =
    options.source === 'daemon'
      ? "the daemon's index, redrawn as tasks move"
      : `the files, read every ${WATCH_POLL_MS / 1000} s (no daemon)`;
  const header = ctx.paint.dim(`svc board --watch, ${time}, from ${from}; Ctrl-C stops`);
  const lines = [header, '', ...frame.split('\n')];
  if (terminal) return ctx.io.stdout(`${HOME}${lines.map((line) => `${line}${CLEAR_LINE}`).join('\n')}\n${CLEAR_DOWN}`);
  ctx.io.stdout(`${options.first ? '' : '\n'}${lines.join('\n')}\n`);
}

/** The width of a frame: the terminal's at each redraw (it may have been resized), else the context's. */
function toWidth(ctx: Context, { terminal }: { terminal: boolean }): number {
  return terminal && process.stdout.isTTY && process.stdout.columns ? process.stdout.columns : ctx.columns;
}
