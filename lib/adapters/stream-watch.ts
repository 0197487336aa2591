import { appendFileSync, closeSync, openSync, readSync } from 'node:fs';
import { toTerminalText } from '../core/text.js';
import { formatUsd, type Usage } from '../core/usage.js';
import type { RunEvent, StreamParser } from './runtimes/runtime.js';

/** What a run's stream said so far, as svc keeps it. */
export interface RunSummary {
  session: string | null;
  model: string | null;
  /** The run's usage so far (the last cumulative figure), null before the first. */
  usage: Usage | null;
  denied: Array<{ tool: string; message: string }>;
  lastError: string | null;
  result: { ok: boolean; message?: string } | null;
  /** svc tools the run called (`svc_task_complete`, ...). */
  calls: string[];
}

/** Where a run's stream is, what reads it, and who hears each event. */
export interface StreamWatchOptions {
  /** The file the CLI writes its stdout to. */
  rawPath: string;
  /** The run's log, where a readable line per event is appended. */
  logPath: string;
  parser: StreamParser;
  /** Prices each usage (the run's model, or the one the stream named): the summary, the log and `onEvent` see it. */
  price?: (usage: Usage, model: string | null) => Usage;
  onEvent?: (event: RunEvent, summary: RunSummary) => void;
  /** Called once when nothing but retry notices came for `idleMs`. */
  onIdle?: () => void;
  idleMs: number;
  /** Readable lines the log already has (a run followed again after a restart): not written twice. */
  logged?: readonly string[];
  pollMs?: number;
  now?: () => number;
}

/** A watched stream: read the rest and stop (`finish`), or stop without reading. */
export interface StreamWatch {
  summary: RunSummary;
  finish(): RunSummary;
  stop(): void;
}

/** An empty summary (a run that said nothing yet). */
export function emptySummary(): RunSummary {
  return { session: null, model: null, usage: null, denied: [], lastError: null, result: null, calls: [] };
}

/**
 * Follows a CLI's stdout file as it grows: each complete line parsed, each event kept in the summary and written to
 * the run log as a readable line; `onIdle` once nothing but retry notices came for `idleMs`.
 */
export function watchStream(options: StreamWatchOptions): StreamWatch {
  const now = options.now ?? Date.now;
  const summary = emptySummary();
  let offset = 0;
  let pending = '';
  let lastActive = now();
  let idle = false;
  let skip = 0;
  const buffer = Buffer.alloc(64 * 1024);
  const read = () => {
    let fd: number;
    try {
      fd = openSync(options.rawPath, 'r');
    } catch {
      return;
    }
    try {
      for (
        let n = readSync(fd, buffer, 0, buffer.length, offset);
        n > 0;
        n = readSync(fd, buffer, 0, buffer.length, offset)
      ) {
        offset += n;
        pending += buffer.toString('utf8', 0, n);
      }
    } finally {
      closeSync(fd);
    }
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) take(line);
  };
  const take = (line: string) => {
    if (!line.trim()) return;
    const events = priced(safeParse(options.parser, line), summary, options.price);
    if (!events.length || events.some((e) => !(e.kind === 'error' && e.retrying))) lastActive = now();
    const readable: string[] = [];
    for (const event of events) {
      keep(summary, event);
      options.onEvent?.(event, summary);
      const text = formatRunEvent(event);
      if (text && text === options.logged?.[skip]) skip++;
      else if (text) readable.push(text);
    }
    if (readable.length) appendLines(options.logPath, readable);
  };
  const timer = setInterval(() => {
    read();
    if (!idle && now() - lastActive >= options.idleMs) {
      idle = true;
      options.onIdle?.();
    }
  }, options.pollMs ?? 250);
  timer.unref();
  return {
    summary,
    finish() {
      clearInterval(timer);
      read();
      if (pending) take(pending);
      pending = '';
      return summary;
    },
    stop: () => clearInterval(timer),
  };
}

/** Reads a whole stream file at once (a run that ended while no daemon watched it); `readable` gets its log lines. */
export function readStream(
  parser: StreamParser,
  text: string,
  options: { readable?: string[]; price?: (usage: Usage, model: string | null) => Usage } = {},
): RunSummary {
  const summary = emptySummary();
  for (const line of text.split('\n'))
    if (line.trim())
      for (const event of priced(safeParse(parser, line), summary, options.price)) {
        keep(summary, event);
        const shown = options.readable && formatRunEvent(event);
        if (shown) options.readable!.push(shown);
      }
  return summary;
}

/** One readable line of the run log for an event (`[call] svc_task_complete {...}`), or null. */
export function formatRunEvent(event: RunEvent): string | null {
  switch (event.kind) {
    case 'session':
      return `[session] ${event.id}`;
    case 'model':
      return `[model] ${event.model}`;
    case 'text':
      return `[text] ${shorten(event.text, 500)}`;
    case 'tool_call':
      return `[call] ${event.tool} ${shorten(event.args, 200)}`;
    case 'tool_result':
      return `[result] ${event.tool} ${event.ok ? 'ok' : 'failed'}${event.ok ? '' : `: ${shorten(event.text, 200)}`}`;
    case 'usage': {
      const u = event.usage;
      return (
        `[usage] ${u.inputTokens} in, ${u.outputTokens} out, cache ${u.cacheReadTokens} read / ` +
        `${u.cacheWriteTokens} written, cost ${formatUsd(u.costUsd)}`
      );
    }
    case 'denied':
      return `[denied] ${event.tool}: ${shorten(event.message, 200)}`;
    case 'error':
      return `[${event.retrying ? 'retrying' : 'error'}] ${shorten(event.message, 300)}`;
    case 'result':
      return `[end] ${event.ok ? 'ok' : `failed: ${shorten(event.message ?? 'no message', 300)}`}`;
  }
}

// --- internal ---

function keep(summary: RunSummary, event: RunEvent): void {
  if (event.kind === 'session') summary.session = event.id;
  else if (event.kind === 'model') summary.model = event.model;
  else if (event.kind === 'usage') {
    summary.usage = event.usage;
    if (event.model) summary.model = event.model;
  } else if (event.kind === 'denied') summary.denied.push({ tool: event.tool, message: event.message });
  else if (event.kind === 'error') summary.lastError = event.message;
  else if (event.kind === 'result')
    summary.result = event.message ? { ok: event.ok, message: event.message } : { ok: event.ok };
  else if (event.kind === 'tool_call' && event.tool.startsWith('svc_')) summary.calls.push(event.tool);
}

/** The events with each usage priced, by the model the event or the stream so far named. */
function priced(
  events: RunEvent[],
  summary: RunSummary,
  price: ((usage: Usage, model: string | null) => Usage) | undefined,
): RunEvent[] {
  if (!price) return events;
  return events.map((event) => {
    if (event.kind === 'model') summary.model = event.model;
    return event.kind === 'usage' ? { ...event, usage: price(event.usage, event.model ?? summary.model) } : event;
  });
}

function safeParse(parser: StreamParser, line: string): RunEvent[] {
  try {
    return parser.line(line);
  } catch {
    return [];
  }
}

/** One line of text, control characters made visible, at most `max` characters. */
function shorten(text: string, max: number): string {
  const flat = toTerminalText(text.replace(/\s+/g, ' ').trim());
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function appendLines(path: string, lines: string[]): void {
  try {
    appendFileSync(path, `${lines.join('\n')}\n`);
  } catch {
    // the log is gone or full: the stream file keeps everything
  }
}
