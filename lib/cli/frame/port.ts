import { SvcError } from '../../core/errors.js';

/** A `--port` value: a whole number from 1 to 65535, else `validation_error`. */
export function toPort(value: unknown): number {
  const port = typeof value === 'number' ? value : Number(String(value));
  if (Number.isInteger(port) && port >= 1 && port <= 65535) return port;
  throw new SvcError(
    'validation_error',
    `--port must be a port number from 1 to 65535 (found ${JSON.stringify(value)}).`,
    'Pass the health port of the daemon, for example --port 18000 (see aof.daemon.healthPort).',
  );
}
