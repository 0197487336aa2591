import type { Context } from './context.js';

/** A count of work done, drawn on one line of stderr. */
export interface Progress {
  /** Prints lines on stdout as they are done, the count kept below them. */
  print(lines: readonly string[]): void;
  /** Adds `n` to the count done and redraws it (at most every 100 ms, unless it was cleared). */
  add(n: number): void;
  /** Clears the count's line before other output (an error on stderr); the next `add` draws it again. */
  clear(): void;
  /** Clears the count's line (the command's last output follows). */
  end(): void;
}

/** How often the count is redrawn at most. */
const REDRAW_MS = 100;

/**
 * A count `<what>: 1,234 / 10,000` on stderr while a long command runs, when stderr is a terminal
 * and the output is not `--json`; piped or with `--json`, only the lines are printed.
 */
export function startProgress(ctx: Context, options: { what: string; total: number; json?: boolean }): Progress {
  const shown = ctx.io.stderrTty === true && options.json !== true;
  let done = 0;
  let drawnAt = 0;
  let drawn = false;
  const clear = () => {
    if (drawn) ctx.io.stderr('\r\x1b[2K');
    drawn = false;
  };
  return {
    print(lines) {
      if (!lines.length) return;
      clear();
      ctx.io.stdout(`${lines.join('\n')}\n`);
    },
    add(n) {
      done += n;
      const now = performance.now();
      if (!shown || (drawn && now - drawnAt < REDRAW_MS && done < options.total)) return;
      drawnAt = now;
      drawn = true;
      ctx.io.stderr(
        `\r\x1b[2K${options.what}: ${done.toLocaleString('en-US')} / ${options.total.toLocaleString('en-US')}`,
      );
    },
    clear,
    end: clear,
  };
}
