/** Wire error codes (docs/agent-tools.md) and the HTTP status each maps to. */
export const ERROR_STATUS = {
  validation_error: 400,
  not_found: 404,
  unknown_tool: 404,
  ambiguous_id: 409,
  invalid_transition: 409,
  lease_held: 409,
  locked: 409,
  stale_session: 409,
  dependency_cycle: 409,
  outcome_required: 422,
  blockers_required: 422,
  forbidden_role: 403,
  too_large: 413,
  no_space: 507,
  busy: 429,
  unavailable: 503,
  internal: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** The wire shape of an error: `{ok:false, error:{code, message, hint?}}`. */
export interface ErrorBody {
  ok: false;
  error: { code: ErrorCode; message: string; hint?: string };
}

/** What an SvcError carries besides its code and message. */
export interface SvcErrorDetail {
  /** What to do about it, shown under the message. */
  hint?: string;
  /** The error this one wraps. */
  cause?: unknown;
}

/** The one error class: a wire code, a message naming what was expected and found, and a hint. */
export class SvcError extends Error {
  readonly code: ErrorCode;
  readonly hint: string | undefined;

  /** `detail`: the hint alone, or the hint and the error this one wraps. */
  constructor(code: ErrorCode, message: string, detail?: string | SvcErrorDetail) {
    const { hint, ...options } = typeof detail === 'object' ? detail : { hint: detail };
    super(message, options);
    this.name = 'SvcError';
    this.code = code;
    this.hint = hint;
  }

  /** The HTTP status that carries this error on the socket. */
  get status(): number {
    return ERROR_STATUS[this.code];
  }

  /** The error shape of every interface. */
  toJSON(): ErrorBody {
    const error: ErrorBody['error'] = { code: this.code, message: this.message };
    if (this.hint) error.hint = this.hint;
    return { ok: false, error };
  }
}

/** Wraps anything thrown into an SvcError, keeping the original as `cause`. */
export function toSvcError(err: unknown): SvcError {
  if (err instanceof SvcError) return err;
  const message = describeError(err);
  return new SvcError('internal', message, { cause: err });
}

/** True for an SvcError of the given code. */
export function isSvcError(err: unknown, code?: ErrorCode): err is SvcError {
  return err instanceof SvcError && (code === undefined || err.code === code);
}

/** True when `err` is a Node system error with `code`. */
export function hasCode(err: unknown, code: string): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === code;
}

/**
 * True when a file is gone: `ENOENT`, or `ESTALE`, which a network filesystem answers for a name
 * or an open file that another host renamed over or removed (libuv has no name for it, so Node
 * reports errno -116 as "Unknown system error"). Either way the file moved: look for it again.
 */
export function isGone(err: unknown): boolean {
  if (hasCode(err, 'ENOENT') || hasCode(err, 'ESTALE')) return true;
  return typeof err === 'object' && err !== null && (err as { errno?: unknown }).errno === -ESTALE;
}

// --- internal ---

/** `ESTALE` on Linux. */
const ESTALE = 116;

/** The message of a thrown value: an Error's message, anything else as a string. */
export function describeError(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** A thrown value as an Error (a string or other value thrown becomes the message of one). */
export function toError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}
