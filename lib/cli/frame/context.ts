import { basename } from 'node:path';
import { toRoot } from '../../store/disk/paths.js';
import type { Store } from '../../store/commit/store.js';
import { createPaint, type Paint } from '../output/color.js';
import { describeError } from '../../core/errors.js';

/** The width assumed when neither the terminal nor `COLUMNS` gives one. */
const DEFAULT_COLUMNS = 80;

/** The store module, loaded once by `loadStore` (most commands; a few light ones never need it). */
let storeModule: typeof import('../../store/commit/store.js') | undefined;

/** Loads the store module (zod, js-yaml, locks), so `ctx.store()` can be called. */
export async function loadStore(): Promise<void> {
  storeModule ??= await import('../../store/commit/store.js');
}

/** Where the CLI writes, and what it reads from the environment. Tests pass their own. */
export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
  env: Record<string, string | undefined>;
  /** Colour the output (stdout is a terminal and `NO_COLOR` is not set); default false. */
  color?: boolean;
  /** stdout is a terminal (a watching command then redraws in place); default false. */
  tty?: boolean;
  /** stderr is a terminal (a long command then shows a count of what it has done there); default false. */
  stderrTty?: boolean;
  /** The terminal's width; default `COLUMNS` from the environment, else 80. */
  columns?: number;
}

/** What every command gets: the io, the root and a store over it. */
export interface Context {
  io: Io;
  root: string;
  store(): Store;
  /** Colours for statuses and priorities (plain text when the output is not a terminal). */
  paint: Paint;
  /** How wide the output may be. */
  columns: number;
  /** Prints a line (or a JSON value when `json` is set) on stdout. */
  print(text: string): void;
  json(value: unknown): void;
  /** Set by a command that must exit non-zero without throwing (e.g. 3 for "daemon not running"). */
  exitCode: number;
  /**
   * `--request-id`: the id a change is sent under (a rerun with the id of a call that timed out learns its outcome).
   */
  requestId?: string;
  /** The request ids whose first answer was sent again (a rerun with `--request-id`): nothing was done now. */
  replayed?: string[];
  /** The id a command of several calls was given or made (each call sends `<id>.<n>`): what a rerun names. */
  requestBase?: string;
}

/** Builds the context of one CLI run. */
export function createContext(io: Io): Context {
  const root = toRoot(io.env.SVC_HOME);
  let store: Store | undefined;
  return {
    io,
    root,
    store: () => {
      if (!storeModule) throw new Error('svc: the store module was not loaded (call loadStore first)');
      return (store ??= storeModule.createStore({
        root,
        spoolEvents: true,
        onEventError: (err, _pending, spooledTo) => io.stderr(toEventWarning(err, spooledTo)),
      }));
    },
    paint: createPaint({ enabled: io.color === true }),
    columns: io.columns ?? (Number(io.env.COLUMNS) || DEFAULT_COLUMNS),
    print: (text) => io.stdout(`${text}\n`),
    json: (value) => io.stdout(`${JSON.stringify(value, null, 2)}\n`),
    exitCode: 0,
  };
}

// --- internal ---

/** The warning of a change made whose event line could not be appended (the command still succeeds). */
function toEventWarning(err: unknown, spooledTo: string | undefined): string {
  const reason = describeError(err);
  const hint = spooledTo
    ? `the event is kept in data/events-spool/${basename(spooledTo)} and appended once ` +
      `data/events/ is writable, by the daemon, svc events or the next command that makes a change`
    : 'it could not be kept in data/events-spool/ either, so svc ' +
      'events will not show this change; check that data/ is writable';
  return (
    `warning: the change was made, but its event could not be ` +
    `appended to the event log (${reason}).\nhint: ${hint}.\n`
  );
}
