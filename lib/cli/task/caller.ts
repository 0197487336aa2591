import { toText } from '../output/format.js';

/** Who the command line acts as, unless `--agent` names another actor. */
export const OPERATOR = 'operator';

/** `--agent` and `--session`: who acts, and the lease it names (docs/command-line.md, "Lease rules"). */
export function withLeaseOptions<T extends { option(name: string, description: string): T }>(command: T): T {
  return command
    .option('--agent <id>', `Act as this agent (default ${OPERATOR}); the holder of a lease moves its own task`)
    .option('--session <id>', 'Name the lease to act under (its session id, from `svc task claim` or `svc task show`)');
}

/**
 * The lease parameters of a call: `--agent` (default the operator), `--session`, and the command that names a lease.
 */
export function toCaller(
  opts: Record<string, unknown>,
  command: string,
): { actor: string; sessionId?: string; command: string } {
  const sessionId = toText(opts.session);
  return { actor: toText(opts.agent) ?? OPERATOR, ...(sessionId ? { sessionId } : {}), command };
}

/** ` --name 'value'` when the option was given, quoted for a POSIX shell. */
export function withFlag(name: string, value: unknown): string {
  const text = toText(value);
  return text === undefined ? '' : ` --${name} '${text.replaceAll("'", "'\\''")}'`;
}
