import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  SvcError
} from "./chunk-3TDHIPSR.js";

// dist/core/status.js
var STATUSES = ["backlog", "ready", "in-progress", "blocked", "done", "deadletter", "cancelled"];
var TERMINAL_STATUSES = ["done", "cancelled"];
var ACTIVE_STATUSES = ["backlog", "ready", "in-progress", "blocked"];
var TRANSITIONS = {
  backlog: { ready: "any", blocked: "any", cancelled: "any", done: ["close"] },
  ready: {
    backlog: "any",
    "in-progress": ["dispatch", "claim"],
    blocked: "any",
    deadletter: ["deadletter"],
    cancelled: "any",
    done: ["close"]
  },
  "in-progress": { ready: "any", done: "any", blocked: "any", cancelled: "any" },
  blocked: { ready: "any", backlog: "any", cancelled: "any", done: ["close"] },
  deadletter: { ready: "any", cancelled: "any", done: ["close"] },
  done: {},
  cancelled: {}
};
function isStatus(value) {
  return typeof value === "string" && STATUSES.includes(value);
}
function isTerminal(status) {
  return TERMINAL_STATUSES.includes(status);
}
function canTransition(from, to, cause = "move") {
  const rule = TRANSITIONS[from][to];
  if (!rule)
    return false;
  return rule === "any" || rule.includes(cause);
}
function nextStatuses(from, cause = "move") {
  return STATUSES.filter((to) => canTransition(from, to, cause));
}
function assertTransition(id, from, to, cause = "move") {
  if (canTransition(from, to, cause))
    return;
  const allowed = nextStatuses(from, cause);
  const hint = allowed.length ? `From ${from}, ${id} can move to: ${allowed.join(", ")}.` : `${from} is terminal: ${id} cannot move any more.`;
  const reserved = TRANSITIONS[from][to];
  const why = Array.isArray(reserved) ? ` (only by ${reserved.join(" or ")})` : "";
  throw new SvcError("invalid_transition", `${id} cannot move from ${from} to ${to}${why}.`, hint);
}
function assertStatus(value) {
  if (isStatus(value))
    return value;
  throw new SvcError("validation_error", `Unknown status ${JSON.stringify(value)}.`, `Use one of: ${STATUSES.join(", ")}.`);
}

export {
  STATUSES,
  ACTIVE_STATUSES,
  isStatus,
  isTerminal,
  assertTransition,
  assertStatus
};
