import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import { format } from 'node:util';
import createDebug from 'debug';

/** The daemon's log: one line per event in `data/logs/daemon.log`; verbose lines via `DEBUG=svc:*`. */
export interface DaemonLog {
  info(event: string, fields?: Record<string, unknown>): void;
  warn(event: string, fields?: Record<string, unknown>): void;
  error(event: string, fields?: Record<string, unknown>): void;
  /** Verbose lines, written only when `DEBUG` enables `svc:<namespace>`. */
  debug(namespace: string): (formatter: string, ...args: unknown[]) => void;
  /** A console alert (`[AOF] ...`): to the daemon's stderr (the log file itself when detached). */
  alert(text: string): void;
  close(): Promise<void>;
}

/** Options of `createLog`: the file, and where console alerts go (the daemon's stderr). */
export interface LogOptions {
  file: string;
  stderr?: (text: string) => void;
  now?: () => Date;
}

/** Opens the log file for appending (mode 0600, directory created 0700). */
export function createLog(options: LogOptions): DaemonLog {
  mkdirSync(dirname(options.file), { recursive: true, mode: 0o700 });
  // A full disk must not kill the daemon: a stream that failed is dropped (losing the lines of
  // the moment) and the file opened again at the next line, so the log resumes once space returns.
  let stream: WriteStream | undefined;
  const open = (): WriteStream => {
    const opened = createWriteStream(options.file, { flags: 'a', mode: 0o600 });
    opened.on('error', () => {
      if (stream === opened) stream = undefined;
    });
    return opened;
  };
  stream = open();
  const now = options.now ?? (() => new Date());
  let closed = false;
  const write = (line: string) => {
    if (!closed) (stream ??= open()).write(line);
  };
  const entry = (level: string) => (event: string, fields?: Record<string, unknown>) =>
    write(
      `${now().toISOString()} ${level} ${event}${fields && Object.keys(fields).length ? ` ${safeJson(fields)}` : ''}\n`,
    );
  return {
    info: entry('info'),
    warn: entry('warn'),
    error: entry('error'),
    debug(namespace) {
      const verbose = createDebug(`svc:${namespace}`);
      verbose.log = (...args: unknown[]) => write(`${format(...args)}\n`);
      return (formatter, ...args) => verbose(formatter, ...args);
    },
    alert(text) {
      const line = text.endsWith('\n') ? text : `${text}\n`;
      if (options.stderr) options.stderr(line);
      else write(`${now().toISOString()} alert ${line}`);
    },
    close: () =>
      new Promise<void>((done) => {
        if (closed) return done();
        closed = true;
        if (!stream) return done();
        stream.end(() => done());
      }),
  };
}

/**
 * A line logger for a part of the daemon that writes plain lines (the scheduler, murmur, SLA): a
 * line that says `warning:` (at its start, or after a prefix such as `[AOF] Murmur: `) is logged at
 * level `warn`, every other line at `info`.
 */
export function toLineLogger(log: DaemonLog, event: string): (line: string) => void {
  return (line) =>
    /^(?:\[AOF\] [^:]+: )?warning: /.test(line)
      ? log.warn(event, { message: line })
      : log.info(event, { message: line });
}

// --- internal ---

function safeJson(fields: Record<string, unknown>): string {
  try {
    return JSON.stringify(fields, (_key, value: unknown) =>
      value instanceof Error ? { message: value.message, code: (value as { code?: unknown }).code } : value,
    );
  } catch {
    return '{"unserializable":true}';
  }
}
