import { wantsColor } from './output/color.js';
import type { Io } from './frame/context.js';
import { readVersion } from './frame/version.js';

/**
 * Runs the CLI and returns the exit code: 0 ok, 1 error, 2 usage, 3 daemon not running.
 * `--version` answers here; every other command loads the dispatcher and then its own module only.
 */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  if (argv[0] === '--version' || argv[0] === '-v') {
    io.stdout(`${readVersion()}\n`);
    return 0;
  }
  return (await import('./dispatch.js')).dispatch(argv, io);
}

/** The entry of `bin/svc.js`: runs `main` on the process and sets the exit code. */
export async function run(): Promise<void> {
  const io: Io = {
    stdout: toPipeWriter(process.stdout),
    stderr: toPipeWriter(process.stderr),
    env: process.env,
    color: wantsColor(process.stdout, process.env),
    tty: process.stdout.isTTY === true,
    stderrTty: process.stderr.isTTY === true,
    ...(process.stdout.isTTY && process.stdout.columns ? { columns: process.stdout.columns } : {}),
  };
  process.exitCode = await main(process.argv.slice(2), io);
}

// --- internal ---

/**
 * Writes to stdout or stderr; once the reader has gone (`svc task create x | head -1`), the rest is
 * dropped quietly: EPIPE is the reader's choice, not a failure of the command.
 */
function toPipeWriter(stream: NodeJS.WriteStream): (text: string) => void {
  let closed = false;
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    closed = true;
  });
  return (text) => {
    if (!closed) stream.write(text);
  };
}
