import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  hasCode
} from "./chunk-RJKZMO5M.js";
import {
  ERROR_STATUS,
  SvcError
} from "./chunk-3TDHIPSR.js";

// dist/daemon/client.js
import { request } from "node:http";
function requestDaemon(socketPath, method, path, body, options = {}) {
  const payload = body === void 0 ? void 0 : typeof body === "string" || Buffer.isBuffer(body) ? body : JSON.stringify(body);
  const headers = { ...options.headers };
  if (payload !== void 0) {
    headers["content-type"] = "application/json";
    headers["content-length"] = Buffer.byteLength(payload);
  }
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, method, path, headers, agent: false }, (res) => {
      const chunks = [];
      res.on("data", (chunk) => chunks.push(chunk));
      res.on("error", (err) => reject(toUnavailable(err, socketPath)));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: parseBody(Buffer.concat(chunks).toString("utf8")) }));
    });
    req.setTimeout(options.timeoutMs ?? 3e4, () => req.destroy(Object.assign(new Error("timed out"), { code: "ETIMEDOUT" })));
    req.on("error", (err) => reject(toUnavailable(err, socketPath)));
    req.end(payload);
  });
}
function toDaemonError(status, body) {
  const error = body?.error;
  const code = error?.code && Object.hasOwn(ERROR_STATUS, error.code) ? error.code : "internal";
  return new SvcError(code, error?.message ?? `The daemon answered HTTP ${status} without an error body.`, error?.hint);
}
function parseBody(text) {
  if (!text)
    return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
function toUnavailable(err, socketPath) {
  if (hasCode(err, "ENOENT") || hasCode(err, "ECONNREFUSED") || hasCode(err, "ENOTSOCK")) {
    return new SvcError("unavailable", `The svc daemon is not running (nothing answers on ${socketPath}).`, "Start it with `svc daemon start`.", { cause: err });
  }
  if (hasCode(err, "EACCES")) {
    return new SvcError("unavailable", `Permission denied on ${socketPath}: the daemon belongs to another user.`, "Run svc as the user who installed the daemon.", { cause: err });
  }
  if (hasCode(err, "ETIMEDOUT")) {
    return new SvcError("unavailable", `The svc daemon did not answer on ${socketPath} in time.`, "Check it with `svc daemon status` and its log in data/logs/daemon.log.", { cause: err });
  }
  return new SvcError("unavailable", `The svc daemon connection failed (${err.code ?? err.message}).`, "Check it with `svc daemon status`.", { cause: err });
}

export {
  requestDaemon,
  toDaemonError
};
