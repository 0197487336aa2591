import { watchStdoutReader } from './pipe-reader.js';

/**
 * A signal that fires on SIGINT, SIGTERM or a stdout whose reader has gone (`svc board --watch | head`):
 * how a command that runs until stopped (`--follow`, `--watch`) knows to finish and exit 0.
 */
export function onInterrupt(): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const stop = () => controller.abort();
  // `on`, not `once`: signal-exit (under the lock library) re-raises a signal that it finds no other
  // listener for, which a `once` listener, removed before the others run, would no longer be.
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  process.stdout.once('error', stop);
  // a reader that goes while nothing is written (a board waiting for a change) is looked for too
  const stopWatching = process.stdout.isTTY ? () => undefined : watchStdoutReader(stop);
  return {
    signal: controller.signal,
    dispose() {
      stopWatching();
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      process.stdout.off('error', stop);
    },
  };
}
