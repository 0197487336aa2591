import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  toPaths
} from "./chunk-TAXNM3NS.js";
import "./chunk-KDLUVCXT.js";
import {
  SvcError
} from "./chunk-3TDHIPSR.js";
import "./chunk-V4RWK56N.js";

// dist/store/event-tail.js
import { open, readdir } from "node:fs/promises";
import { join } from "node:path";
function createEventTail(root, options) {
  const dir = toPaths(root).events;
  const files = /* @__PURE__ */ new Map();
  let newest = null;
  const read = async () => {
    const days = await listDays(dir, options.fromDay);
    const start = newest === null ? 0 : Math.max(0, days.indexOf(newest) - 1);
    for (const name of days.slice(start)) {
      await drain(join(dir, name), files.get(name) ?? setNew(files, name), options);
      if (newest === null || name > newest)
        newest = name;
    }
  };
  return {
    read,
    follow(intervalMs, onError) {
      let timer;
      let running = Promise.resolve();
      let closed = false;
      const tick = () => {
        running = read().catch(onError).then(() => {
          if (!closed)
            timer = setTimeout(tick, intervalMs);
        });
      };
      timer = setTimeout(tick, intervalMs);
      return {
        async close() {
          closed = true;
          clearTimeout(timer);
          await running;
        }
      };
    }
  };
}
var CHUNK = 1024 * 1024;
function setNew(files, name) {
  const state = { offset: 0, line: 0, partial: Buffer.alloc(0) };
  files.set(name, state);
  return state;
}
async function listDays(dir, fromDay) {
  try {
    return (await readdir(dir)).filter((name) => /^\d{4}-\d{2}-\d{2}\.jsonl$/.test(name) && (!fromDay || name.slice(0, 10) >= fromDay)).sort();
  } catch (err) {
    if (err.code === "ENOENT")
      return [];
    throw err;
  }
}
async function drain(file, state, options) {
  const handle = await open(file, "r").catch(() => null);
  if (!handle)
    return;
  try {
    const { size } = await handle.stat();
    if (size < state.offset)
      Object.assign(state, { offset: 0, line: 0, partial: Buffer.alloc(0) });
    while (state.offset < size) {
      const chunk = Buffer.alloc(Math.min(CHUNK, size - state.offset));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, state.offset);
      if (bytesRead === 0)
        break;
      state.offset += bytesRead;
      let data = state.partial.length ? Buffer.concat([state.partial, chunk.subarray(0, bytesRead)]) : chunk.subarray(0, bytesRead);
      for (let end = data.indexOf(10); end !== -1; end = data.indexOf(10)) {
        emit(file, ++state.line, data.subarray(0, end).toString("utf8"), options);
        data = data.subarray(end + 1);
      }
      state.partial = Buffer.from(data);
    }
  } finally {
    await handle.close();
  }
}
function emit(file, line, text, options) {
  if (!text.trim())
    return;
  let event;
  try {
    event = JSON.parse(text);
  } catch {
    return options.onBadLine?.(file, line, text);
  }
  if (!isEvent(event))
    return options.onBadLine?.(file, line, text);
  options.onEvent(event);
}
function isEvent(value) {
  const event = value;
  return typeof event === "object" && event !== null && typeof event.timestamp === "string" && typeof event.type === "string";
}

// dist/cli/events.js
var FOLLOW_INTERVAL_MS = 100;
var PAYLOAD_WIDTH = 160;
function registerEvents(cli, ctx) {
  cli.command("events", "Print the event log (data/events/*.jsonl), one line per event").option("-f, --follow", "Keep printing new events as they are written").option("--type <type>", "Only this event type (a trailing * matches a prefix: task.*)").option("--task <id>", "Only events of this task (full id or prefix)").option("--since <time>", "Only events at or after a time (2026-11-23, 2026-11-23T08:00:00Z) or a duration back from now (30m, 2h, 1d)").option("--json", "Print each event as one JSON object a line").action(async (opts) => {
    const filter = toFilter(opts, /* @__PURE__ */ new Date());
    const print = (event) => {
      if (matches(event, filter))
        ctx.io.stdout(`${opts.json ? JSON.stringify(event) : formatEvent(event)}
`);
    };
    const tail = createEventTail(ctx.root, {
      fromDay: filter.since?.toISOString().slice(0, 10),
      onEvent: print,
      onBadLine: (file, line) => ctx.io.stderr(`warning: ${file}:${line} is not a JSON event; skipped
`)
    });
    await tail.read();
    if (opts.follow)
      await followUntilStopped(ctx, tail);
  });
}
function formatEvent(event) {
  const payload = Object.entries(event.payload ?? {}).map(([key, value]) => `${key}=${toValue(value)}`).join(" ");
  const shown = payload.length > PAYLOAD_WIDTH ? `${payload.slice(0, PAYLOAD_WIDTH - 1)}\u2026` : payload;
  return [event.timestamp, event.type.padEnd(18), (event.taskId ?? "-").padEnd(19), String(event.actor ?? "-"), shown].join("  ").trimEnd();
}
function toFilter(opts, now) {
  const text = (value) => value === void 0 || value === true ? void 0 : String(value);
  const since = text(opts.since);
  return { type: text(opts.type), task: text(opts.task), ...since === void 0 ? {} : { since: toSince(since, now) } };
}
function matches(event, filter) {
  if (filter.type && !(filter.type.endsWith("*") ? event.type.startsWith(filter.type.slice(0, -1)) : event.type === filter.type))
    return false;
  if (filter.task) {
    const id = event.taskId ?? "";
    if (!id || !(id.startsWith(filter.task) || id.startsWith("TASK-") && id.slice(5).startsWith(filter.task)))
      return false;
  }
  return !filter.since || Date.parse(event.timestamp) >= filter.since.getTime();
}
var UNITS = { ms: 1, s: 1e3, m: 6e4, h: 36e5, d: 864e5 };
function toSince(value, now) {
  const duration = /^(\d+)(ms|s|m|h|d)$/.exec(value.trim());
  if (duration)
    return new Date(now.getTime() - Number(duration[1]) * UNITS[duration[2]]);
  const at = /^\d{4}-\d{2}-\d{2}/.test(value.trim()) ? Date.parse(value.trim()) : Number.NaN;
  if (!Number.isNaN(at))
    return new Date(at);
  throw new SvcError("validation_error", `--since must be a time or a duration back from now (found ${JSON.stringify(value)}).`, "Pass a date or time such as 2026-11-23 or 2026-11-23T08:00:00Z, or a duration such as 30m, 2h or 1d.");
}
function toValue(value) {
  if (typeof value === "string")
    return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  if (value === void 0)
    return "undefined";
  return JSON.stringify(value);
}
async function followUntilStopped(ctx, tail) {
  let stop;
  const stopped = new Promise((resolve) => stop = resolve);
  const follower = tail.follow(FOLLOW_INTERVAL_MS, (err) => ctx.io.stderr(`warning: reading the event log failed: ${err instanceof Error ? err.message : String(err)}
`));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  process.stdout.once("error", stop);
  try {
    await stopped;
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
    process.stdout.off("error", stop);
    await follower.close();
  }
}
export {
  formatEvent,
  registerEvents,
  toFilter
};
