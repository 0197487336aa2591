import { SvcError } from './errors.js';

/** The header that carries a call's request id (docs/daemon.md: retries that never duplicate). */
export const REQUEST_ID_HEADER = 'idempotency-key';

/** The header that carries the run session of an `svc` command started by an agent run (its `SVC_SESSION_ID`). */
export const RUN_SESSION_HEADER = 'x-svc-session';

/** The tools that change nothing: their calls carry no request id and their answers are not remembered. */
export const READ_ONLY_TOOLS: ReadonlySet<string> = new Set(['svc_status', 'operator_task_show']);

/** Throws `validation_error` unless `value` is a usable request id (1 to 128 of `A-Z a-z 0-9 . _ : -`). */
export function assertRequestId(value: string): string {
  if (/^[A-Za-z0-9._:-]{1,128}$/.test(value)) return value;
  const shown = JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  throw new SvcError(
    'validation_error',
    `Invalid request id ${shown}: expected 1 to 128 letters, digits, '.', '_', ':' or '-'.`,
    'Pass the id a timed-out command printed (`--request-id <id>`), or any id of your own, such as a UUID.',
  );
}
