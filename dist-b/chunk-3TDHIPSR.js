import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// dist/core/errors.js
var ERROR_STATUS = {
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
  unavailable: 503,
  internal: 500
};
var SvcError = class extends Error {
  code;
  hint;
  constructor(code, message, hint, options) {
    super(message, options);
    this.name = "SvcError";
    this.code = code;
    this.hint = hint;
  }
  /** The HTTP status that carries this error on the socket. */
  get status() {
    return ERROR_STATUS[this.code];
  }
  /** The error shape of every interface. */
  toJSON() {
    const error = { code: this.code, message: this.message };
    if (this.hint)
      error.hint = this.hint;
    return { ok: false, error };
  }
};
function toSvcError(err) {
  if (err instanceof SvcError)
    return err;
  const message = err instanceof Error ? err.message : String(err);
  return new SvcError("internal", message, void 0, { cause: err });
}
function isSvcError(err, code) {
  return err instanceof SvcError && (code === void 0 || err.code === code);
}

export {
  ERROR_STATUS,
  SvcError,
  toSvcError,
  isSvcError
};
