import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// dist/core/priority.js
var PRIORITIES = ["low", "normal", "high", "critical"];
var DEFAULT_PRIORITY = "normal";
function toPriorityRank(priority) {
  const rank = PRIORITIES.indexOf(priority);
  return rank === -1 ? 1 : rank;
}

export {
  PRIORITIES,
  DEFAULT_PRIORITY,
  toPriorityRank
};
