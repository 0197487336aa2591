import { readdir } from 'node:fs/promises';
import type { CAC } from 'cac';
import { describeError, SvcError } from '../core/errors.js';
import { TASK_ID_PATTERN, resolveIdArg, toBareSeq, toIdDate } from '../core/ids.js';
import { toTerminalText } from '../core/text.js';
import { createEventTail } from '../store/events/tail.js';
import { toPaths } from '../store/disk/paths.js';
import type { SvcEvent } from '../store/events/log.js';
import type { Context } from './frame/context.js';
import { onInterrupt } from './frame/interrupt.js';
import { asUsage } from './frame/usage.js';

/** How often `--follow` looks for new lines and new day files. */
const FOLLOW_INTERVAL_MS = 100;
const PAYLOAD_WIDTH = 160;
/**
 * How many events of the log so far `--follow` prints before the new ones, unless `--tail` says otherwise: a screenful.
 */
const FOLLOW_TAIL = 20;

/** The filters of `svc events`. */
export interface EventFilter {
  type?: string;
  task?: string;
  /** `task` is one whole id (a bare sequence resolved), not a prefix. */
  exact?: boolean;
  since?: Date;
}

/**
 * Registers `svc events`: the event log, one readable line per event (or `--json`), filtered;
 * `--follow` prints the last 20 (`--tail`) and then new events, across the UTC day boundary, until interrupted.
 */
export function registerEvents(cli: CAC, ctx: Context): void {
  cli
    .command('events', 'Print the event log (data/events/*.jsonl), one line per event')
    .option('-f, --follow', 'Keep printing new events as they are written')
    .option('--type <type>', 'Only this event type (a trailing * matches a prefix: task.*)')
    .option('--task <id>', 'Only events of this task (full id, prefix or bare sequence such as 013)')
    .option(
      '--since <time>',
      'Only events at or after a time (2026-11-23, 2026-11-23T08:00:00Z) or a duration back from now (30m, 2h, 1d)',
    )
    .option(
      '--tail <n>',
      `Only the last n events of the log so far (default ${FOLLOW_TAIL} with --follow, else all; "all" for all)`,
    )
    .option('--json', 'Print each event as one JSON object a line')
    .action(async (opts: Record<string, unknown>) => {
      const now = new Date();
      const filter = toFilter(opts, now);
      const limit = asUsage(() => toTail(opts.tail, { follow: opts.follow === true }));
      await mergeSpooled(ctx);
      const show = (event: SvcEvent) => ctx.io.stdout(`${opts.json ? JSON.stringify(event) : formatEvent(event)}\n`);
      const last: SvcEvent[] = [];
      const keep = (event: SvcEvent) => {
        if (!matches(event, filter)) return;
        if (limit === null) return show(event);
        last.push(event);
        if (last.length > 2 * limit + 100) last.splice(0, last.length - limit);
      };
      const print = (event: SvcEvent) => {
        if (matches(event, filter)) show(event);
      };
      // A bare sequence is resolved like every id argument, among the tree's tasks and the log's:
      // the events of that sequence are held until the read is done and the id is known.
      const seq = filter.task === undefined ? null : toBareSeq(filter.task);
      const held: SvcEvent[] = [];
      let onEvent =
        seq === null
          ? keep
          : (event: SvcEvent) => {
              if (toAnySeq(event.taskId) === seq) held.push(event);
            };
      const tail = createEventTail(ctx.root, {
        fromDay: filter.since?.toISOString().slice(0, 10),
        onEvent: (event) => onEvent(event),
        onBadLine: (file, line) => ctx.io.stderr(`warning: ${file}:${line} is not a JSON event; skipped\n`),
      });
      await tail.read();
      if (seq !== null) {
        const { listNames } = await import('../store/commit/store.js');
        const ids = new Set([...(await listNames(toPaths(ctx.root))).keys(), ...held.map((event) => event.taskId!)]);
        Object.assign(filter, { task: resolveIdArg(filter.task!, ids, toIdDate(now)), exact: true });
        held.forEach(keep);
      }
      if (limit !== null && limit > 0) last.slice(-limit).forEach(show);
      onEvent = print;
      if (opts.follow) await followUntilStopped(ctx, tail);
    });
}

/** One readable line: time, type, task, actor, then the payload as `key=value` pairs. */
export function formatEvent(event: SvcEvent): string {
  const payload = Object.entries(event.payload ?? {})
    .map(([key, value]) => `${key}=${toValue(value)}`)
    .join(' ');
  const shown = payload.length > PAYLOAD_WIDTH ? `${payload.slice(0, PAYLOAD_WIDTH - 1)}…` : payload;
  return toTerminalText(
    [event.timestamp, event.type.padEnd(18), (event.taskId ?? '-').padEnd(19), String(event.actor ?? '-'), shown]
      .join('  ')
      .trimEnd(),
  );
}

/** The filters of the options; a `--since` that is not a time is a `validation_error`. */
export function toFilter(opts: Record<string, unknown>, now: Date): EventFilter {
  const text = (value: unknown) => (value === undefined || value === true ? undefined : String(value));
  const since = text(opts.since);
  return {
    type: text(opts.type),
    task: text(opts.task),
    ...(since === undefined ? {} : { since: toSince(since, now) }),
  };
}

// --- internal ---

/**
 * Events a command could not append were spooled (docs/events.md): they are appended first, so
 * they are shown. The spool code is loaded only when there is a spool to merge.
 */
async function mergeSpooled(ctx: Context): Promise<void> {
  const spooled = await readdir(toPaths(ctx.root).eventsSpool).catch(() => []);
  if (spooled.length === 0) return;
  const { mergeEventSpool } = await import('../store/events/spool.js');
  await mergeEventSpool(ctx.root).catch((err: unknown) =>
    ctx.io.stderr(
      `warning: data/events-spool/ holds events not yet appended to ` +
        `the event log (${describeError(err)}); they are not shown.\n`,
    ),
  );
}

function matches(event: SvcEvent, filter: EventFilter): boolean {
  if (
    filter.type &&
    !(filter.type.endsWith('*') ? event.type.startsWith(filter.type.slice(0, -1)) : event.type === filter.type)
  )
    return false;
  if (filter.task) {
    const id = event.taskId ?? '';
    if (
      filter.exact
        ? id !== filter.task
        : !id || !(id.startsWith(filter.task) || (id.startsWith('TASK-') && id.slice(5).startsWith(filter.task)))
    )
      return false;
  }
  return !filter.since || Date.parse(event.timestamp) >= filter.since.getTime();
}

/** `--tail`: a count, `all` (null), or by default FOLLOW_TAIL when following and all otherwise. */
function toTail(value: unknown, { follow }: { follow: boolean }): number | null {
  if (value === undefined) return follow ? FOLLOW_TAIL : null;
  const text = String(value).trim();
  if (text === 'all') return null;
  if (/^\d+$/.test(text)) return Number(text);
  throw new SvcError(
    'validation_error',
    `--tail takes a count of events or "all" (found ${JSON.stringify(value === true ? '' : text)}).`,
    'Pass --tail 50, --tail 0 (only new events when following) or --tail all.',
  );
}

function toAnySeq(id: string | undefined): number | null {
  const match = id === undefined ? null : TASK_ID_PATTERN.exec(id);
  return match ? Number(match[2]) : null;
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

function toSince(value: string, now: Date): Date {
  const duration = /^(\d+)(ms|s|m|h|d)$/.exec(value.trim());
  if (duration) return new Date(now.getTime() - Number(duration[1]) * UNITS[duration[2]!]!);
  const at = /^\d{4}-\d{2}-\d{2}/.test(value.trim()) ? Date.parse(value.trim()) : Number.NaN;
  if (!Number.isNaN(at)) return new Date(at);
  throw new SvcError(
    'validation_error',
    `--since must be a time or a duration back from now (found ${JSON.stringify(value)}).`,
    'Pass a date or time such as 2026-11-23 or 2026-11-23T08:00:00Z, or a duration such as 30m, 2h or 1d.',
  );
}

function toValue(value: unknown): string {
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  if (value === undefined) return 'undefined';
  return JSON.stringify(value);
}

/** Follows the log until SIGINT/SIGTERM or a closed stdout (`svc events -f | head`). */
async function followUntilStopped(ctx: Context, tail: ReturnType<typeof createEventTail>): Promise<void> {
  const { signal, dispose } = onInterrupt();
  const follower = tail.follow(FOLLOW_INTERVAL_MS, (err) =>
    ctx.io.stderr(`warning: reading the event log failed: ${describeError(err)}\n`),
  );
  try {
    await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
  } finally {
    dispose();
    await follower.close();
  }
}
