import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  SpawnError,
  createCommandAdapter,
  createGateRoleResolver,
  createStandaloneAdapter,
  startScheduler,
  toSessionKey
} from "./chunk-PM6OXDIW.js";
import {
  createOrgState
} from "./chunk-577AH7VX.js";
import {
  TOOLS,
  invokeTool
} from "./chunk-V67X4HHO.js";
import {
  findPackageRoot,
  readPackageVersion,
  templatePath
} from "./chunk-CNII3WO7.js";
import {
  appendEvents,
  createStore,
  listNames,
  readTaskFile,
  systemClock,
  withLock
} from "./chunk-BHFKD6MH.js";
import {
  formatIssues,
  parseTask,
  toDispatchFailures
} from "./chunk-RQHJ2EHB.js";
import {
  requestDaemon
} from "./chunk-SBT3SZU2.js";
import {
  ensureDir,
  hasCode,
  writeAtomic,
  writeDurable
} from "./chunk-RJKZMO5M.js";
import {
  loadOrg,
  toDaemonSettings
} from "./chunk-7MGHIX6Y.js";
import {
  external_exports,
  isSafeId,
  parseFrontmatter
} from "./chunk-PTPZOUXC.js";
import {
  toPaths,
  toTaskId
} from "./chunk-TAXNM3NS.js";
import {
  ACTIVE_STATUSES,
  STATUSES
} from "./chunk-KDLUVCXT.js";
import {
  SvcError,
  isSvcError,
  toSvcError
} from "./chunk-3TDHIPSR.js";
import {
  __commonJS,
  __require,
  __toESM
} from "./chunk-V4RWK56N.js";

// node_modules/ms/index.js
var require_ms = __commonJS({
  "node_modules/ms/index.js"(exports, module) {
    var s = 1e3;
    var m = s * 60;
    var h = m * 60;
    var d = h * 24;
    var w = d * 7;
    var y = d * 365.25;
    module.exports = function(val, options) {
      options = options || {};
      var type = typeof val;
      if (type === "string" && val.length > 0) {
        return parse4(val);
      } else if (type === "number" && isFinite(val)) {
        return options.long ? fmtLong(val) : fmtShort(val);
      }
      throw new Error(
        "val is not a non-empty string or a valid number. val=" + JSON.stringify(val)
      );
    };
    function parse4(str) {
      str = String(str);
      if (str.length > 100) {
        return;
      }
      var match = /^(-?(?:\d+)?\.?\d+) *(milliseconds?|msecs?|ms|seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h|days?|d|weeks?|w|years?|yrs?|y)?$/i.exec(
        str
      );
      if (!match) {
        return;
      }
      var n = parseFloat(match[1]);
      var type = (match[2] || "ms").toLowerCase();
      switch (type) {
        case "years":
        case "year":
        case "yrs":
        case "yr":
        case "y":
          return n * y;
        case "weeks":
        case "week":
        case "w":
          return n * w;
        case "days":
        case "day":
        case "d":
          return n * d;
        case "hours":
        case "hour":
        case "hrs":
        case "hr":
        case "h":
          return n * h;
        case "minutes":
        case "minute":
        case "mins":
        case "min":
        case "m":
          return n * m;
        case "seconds":
        case "second":
        case "secs":
        case "sec":
        case "s":
          return n * s;
        case "milliseconds":
        case "millisecond":
        case "msecs":
        case "msec":
        case "ms":
          return n;
        default:
          return void 0;
      }
    }
    function fmtShort(ms) {
      var msAbs = Math.abs(ms);
      if (msAbs >= d) {
        return Math.round(ms / d) + "d";
      }
      if (msAbs >= h) {
        return Math.round(ms / h) + "h";
      }
      if (msAbs >= m) {
        return Math.round(ms / m) + "m";
      }
      if (msAbs >= s) {
        return Math.round(ms / s) + "s";
      }
      return ms + "ms";
    }
    function fmtLong(ms) {
      var msAbs = Math.abs(ms);
      if (msAbs >= d) {
        return plural(ms, msAbs, d, "day");
      }
      if (msAbs >= h) {
        return plural(ms, msAbs, h, "hour");
      }
      if (msAbs >= m) {
        return plural(ms, msAbs, m, "minute");
      }
      if (msAbs >= s) {
        return plural(ms, msAbs, s, "second");
      }
      return ms + " ms";
    }
    function plural(ms, msAbs, n, name) {
      var isPlural = msAbs >= n * 1.5;
      return Math.round(ms / n) + " " + name + (isPlural ? "s" : "");
    }
  }
});

// node_modules/debug/src/common.js
var require_common = __commonJS({
  "node_modules/debug/src/common.js"(exports, module) {
    function setup(env) {
      createDebug2.debug = createDebug2;
      createDebug2.default = createDebug2;
      createDebug2.coerce = coerce;
      createDebug2.disable = disable;
      createDebug2.enable = enable;
      createDebug2.enabled = enabled;
      createDebug2.humanize = require_ms();
      createDebug2.destroy = destroy;
      Object.keys(env).forEach((key) => {
        createDebug2[key] = env[key];
      });
      createDebug2.names = [];
      createDebug2.skips = [];
      createDebug2.formatters = {};
      function selectColor(namespace) {
        let hash = 0;
        for (let i = 0; i < namespace.length; i++) {
          hash = (hash << 5) - hash + namespace.charCodeAt(i);
          hash |= 0;
        }
        return createDebug2.colors[Math.abs(hash) % createDebug2.colors.length];
      }
      createDebug2.selectColor = selectColor;
      function createDebug2(namespace) {
        let prevTime;
        let enableOverride = null;
        let namespacesCache;
        let enabledCache;
        function debug(...args) {
          if (!debug.enabled) {
            return;
          }
          const self = debug;
          const curr = Number(/* @__PURE__ */ new Date());
          const ms = curr - (prevTime || curr);
          self.diff = ms;
          self.prev = prevTime;
          self.curr = curr;
          prevTime = curr;
          args[0] = createDebug2.coerce(args[0]);
          if (typeof args[0] !== "string") {
            args.unshift("%O");
          }
          let index = 0;
          args[0] = args[0].replace(/%([a-zA-Z%])/g, (match, format2) => {
            if (match === "%%") {
              return "%";
            }
            index++;
            const formatter = createDebug2.formatters[format2];
            if (typeof formatter === "function") {
              const val = args[index];
              match = formatter.call(self, val);
              args.splice(index, 1);
              index--;
            }
            return match;
          });
          createDebug2.formatArgs.call(self, args);
          const logFn = self.log || createDebug2.log;
          logFn.apply(self, args);
        }
        debug.namespace = namespace;
        debug.useColors = createDebug2.useColors();
        debug.color = createDebug2.selectColor(namespace);
        debug.extend = extend;
        debug.destroy = createDebug2.destroy;
        Object.defineProperty(debug, "enabled", {
          enumerable: true,
          configurable: false,
          get: () => {
            if (enableOverride !== null) {
              return enableOverride;
            }
            if (namespacesCache !== createDebug2.namespaces) {
              namespacesCache = createDebug2.namespaces;
              enabledCache = createDebug2.enabled(namespace);
            }
            return enabledCache;
          },
          set: (v) => {
            enableOverride = v;
          }
        });
        if (typeof createDebug2.init === "function") {
          createDebug2.init(debug);
        }
        return debug;
      }
      function extend(namespace, delimiter) {
        const newDebug = createDebug2(this.namespace + (typeof delimiter === "undefined" ? ":" : delimiter) + namespace);
        newDebug.log = this.log;
        return newDebug;
      }
      function enable(namespaces) {
        createDebug2.save(namespaces);
        createDebug2.namespaces = namespaces;
        createDebug2.names = [];
        createDebug2.skips = [];
        const split = (typeof namespaces === "string" ? namespaces : "").trim().replace(/\s+/g, ",").split(",").filter(Boolean);
        for (const ns of split) {
          if (ns[0] === "-") {
            createDebug2.skips.push(ns.slice(1));
          } else {
            createDebug2.names.push(ns);
          }
        }
      }
      function matchesTemplate(search, template) {
        let searchIndex = 0;
        let templateIndex = 0;
        let starIndex = -1;
        let matchIndex = 0;
        while (searchIndex < search.length) {
          if (templateIndex < template.length && (template[templateIndex] === search[searchIndex] || template[templateIndex] === "*")) {
            if (template[templateIndex] === "*") {
              starIndex = templateIndex;
              matchIndex = searchIndex;
              templateIndex++;
            } else {
              searchIndex++;
              templateIndex++;
            }
          } else if (starIndex !== -1) {
            templateIndex = starIndex + 1;
            matchIndex++;
            searchIndex = matchIndex;
          } else {
            return false;
          }
        }
        while (templateIndex < template.length && template[templateIndex] === "*") {
          templateIndex++;
        }
        return templateIndex === template.length;
      }
      function disable() {
        const namespaces = [
          ...createDebug2.names,
          ...createDebug2.skips.map((namespace) => "-" + namespace)
        ].join(",");
        createDebug2.enable("");
        return namespaces;
      }
      function enabled(name) {
        for (const skip of createDebug2.skips) {
          if (matchesTemplate(name, skip)) {
            return false;
          }
        }
        for (const ns of createDebug2.names) {
          if (matchesTemplate(name, ns)) {
            return true;
          }
        }
        return false;
      }
      function coerce(val) {
        if (val instanceof Error) {
          return val.stack || val.message;
        }
        return val;
      }
      function destroy() {
        console.warn("Instance method `debug.destroy()` is deprecated and no longer does anything. It will be removed in the next major version of `debug`.");
      }
      createDebug2.enable(createDebug2.load());
      return createDebug2;
    }
    module.exports = setup;
  }
});

// node_modules/debug/src/browser.js
var require_browser = __commonJS({
  "node_modules/debug/src/browser.js"(exports, module) {
    exports.formatArgs = formatArgs;
    exports.save = save;
    exports.load = load;
    exports.useColors = useColors;
    exports.storage = localstorage();
    exports.destroy = /* @__PURE__ */ (() => {
      let warned = false;
      return () => {
        if (!warned) {
          warned = true;
          console.warn("Instance method `debug.destroy()` is deprecated and no longer does anything. It will be removed in the next major version of `debug`.");
        }
      };
    })();
    exports.colors = [
      "#0000CC",
      "#0000FF",
      "#0033CC",
      "#0033FF",
      "#0066CC",
      "#0066FF",
      "#0099CC",
      "#0099FF",
      "#00CC00",
      "#00CC33",
      "#00CC66",
      "#00CC99",
      "#00CCCC",
      "#00CCFF",
      "#3300CC",
      "#3300FF",
      "#3333CC",
      "#3333FF",
      "#3366CC",
      "#3366FF",
      "#3399CC",
      "#3399FF",
      "#33CC00",
      "#33CC33",
      "#33CC66",
      "#33CC99",
      "#33CCCC",
      "#33CCFF",
      "#6600CC",
      "#6600FF",
      "#6633CC",
      "#6633FF",
      "#66CC00",
      "#66CC33",
      "#9900CC",
      "#9900FF",
      "#9933CC",
      "#9933FF",
      "#99CC00",
      "#99CC33",
      "#CC0000",
      "#CC0033",
      "#CC0066",
      "#CC0099",
      "#CC00CC",
      "#CC00FF",
      "#CC3300",
      "#CC3333",
      "#CC3366",
      "#CC3399",
      "#CC33CC",
      "#CC33FF",
      "#CC6600",
      "#CC6633",
      "#CC9900",
      "#CC9933",
      "#CCCC00",
      "#CCCC33",
      "#FF0000",
      "#FF0033",
      "#FF0066",
      "#FF0099",
      "#FF00CC",
      "#FF00FF",
      "#FF3300",
      "#FF3333",
      "#FF3366",
      "#FF3399",
      "#FF33CC",
      "#FF33FF",
      "#FF6600",
      "#FF6633",
      "#FF9900",
      "#FF9933",
      "#FFCC00",
      "#FFCC33"
    ];
    function useColors() {
      if (typeof window !== "undefined" && window.process && (window.process.type === "renderer" || window.process.__nwjs)) {
        return true;
      }
      if (typeof navigator !== "undefined" && navigator.userAgent && navigator.userAgent.toLowerCase().match(/(edge|trident)\/(\d+)/)) {
        return false;
      }
      let m;
      return typeof document !== "undefined" && document.documentElement && document.documentElement.style && document.documentElement.style.WebkitAppearance || // Is firebug? http://stackoverflow.com/a/398120/376773
      typeof window !== "undefined" && window.console && (window.console.firebug || window.console.exception && window.console.table) || // Is firefox >= v31?
      // https://developer.mozilla.org/en-US/docs/Tools/Web_Console#Styling_messages
      typeof navigator !== "undefined" && navigator.userAgent && (m = navigator.userAgent.toLowerCase().match(/firefox\/(\d+)/)) && parseInt(m[1], 10) >= 31 || // Double check webkit in userAgent just in case we are in a worker
      typeof navigator !== "undefined" && navigator.userAgent && navigator.userAgent.toLowerCase().match(/applewebkit\/(\d+)/);
    }
    function formatArgs(args) {
      args[0] = (this.useColors ? "%c" : "") + this.namespace + (this.useColors ? " %c" : " ") + args[0] + (this.useColors ? "%c " : " ") + "+" + module.exports.humanize(this.diff);
      if (!this.useColors) {
        return;
      }
      const c = "color: " + this.color;
      args.splice(1, 0, c, "color: inherit");
      let index = 0;
      let lastC = 0;
      args[0].replace(/%[a-zA-Z%]/g, (match) => {
        if (match === "%%") {
          return;
        }
        index++;
        if (match === "%c") {
          lastC = index;
        }
      });
      args.splice(lastC, 0, c);
    }
    exports.log = console.debug || console.log || (() => {
    });
    function save(namespaces) {
      try {
        if (namespaces) {
          exports.storage.setItem("debug", namespaces);
        } else {
          exports.storage.removeItem("debug");
        }
      } catch (error) {
      }
    }
    function load() {
      let r;
      try {
        r = exports.storage.getItem("debug") || exports.storage.getItem("DEBUG");
      } catch (error) {
      }
      if (!r && typeof process !== "undefined" && "env" in process) {
        r = process.env.DEBUG;
      }
      return r;
    }
    function localstorage() {
      try {
        return localStorage;
      } catch (error) {
      }
    }
    module.exports = require_common()(exports);
    var { formatters } = module.exports;
    formatters.j = function(v) {
      try {
        return JSON.stringify(v);
      } catch (error) {
        return "[UnexpectedJSONParseError]: " + error.message;
      }
    };
  }
});

// node_modules/debug/src/node.js
var require_node = __commonJS({
  "node_modules/debug/src/node.js"(exports, module) {
    var tty = __require("tty");
    var util = __require("util");
    exports.init = init;
    exports.log = log;
    exports.formatArgs = formatArgs;
    exports.save = save;
    exports.load = load;
    exports.useColors = useColors;
    exports.destroy = util.deprecate(
      () => {
      },
      "Instance method `debug.destroy()` is deprecated and no longer does anything. It will be removed in the next major version of `debug`."
    );
    exports.colors = [6, 2, 3, 4, 5, 1];
    try {
      const supportsColor = __require("supports-color");
      if (supportsColor && (supportsColor.stderr || supportsColor).level >= 2) {
        exports.colors = [
          20,
          21,
          26,
          27,
          32,
          33,
          38,
          39,
          40,
          41,
          42,
          43,
          44,
          45,
          56,
          57,
          62,
          63,
          68,
          69,
          74,
          75,
          76,
          77,
          78,
          79,
          80,
          81,
          92,
          93,
          98,
          99,
          112,
          113,
          128,
          129,
          134,
          135,
          148,
          149,
          160,
          161,
          162,
          163,
          164,
          165,
          166,
          167,
          168,
          169,
          170,
          171,
          172,
          173,
          178,
          179,
          184,
          185,
          196,
          197,
          198,
          199,
          200,
          201,
          202,
          203,
          204,
          205,
          206,
          207,
          208,
          209,
          214,
          215,
          220,
          221
        ];
      }
    } catch (error) {
    }
    exports.inspectOpts = Object.keys(process.env).filter((key) => {
      return /^debug_/i.test(key);
    }).reduce((obj, key) => {
      const prop = key.substring(6).toLowerCase().replace(/_([a-z])/g, (_, k) => {
        return k.toUpperCase();
      });
      let val = process.env[key];
      if (/^(yes|on|true|enabled)$/i.test(val)) {
        val = true;
      } else if (/^(no|off|false|disabled)$/i.test(val)) {
        val = false;
      } else if (val === "null") {
        val = null;
      } else {
        val = Number(val);
      }
      obj[prop] = val;
      return obj;
    }, {});
    function useColors() {
      return "colors" in exports.inspectOpts ? Boolean(exports.inspectOpts.colors) : tty.isatty(process.stderr.fd);
    }
    function formatArgs(args) {
      const { namespace: name, useColors: useColors2 } = this;
      if (useColors2) {
        const c = this.color;
        const colorCode = "\x1B[3" + (c < 8 ? c : "8;5;" + c);
        const prefix = `  ${colorCode};1m${name} \x1B[0m`;
        args[0] = prefix + args[0].split("\n").join("\n" + prefix);
        args.push(colorCode + "m+" + module.exports.humanize(this.diff) + "\x1B[0m");
      } else {
        args[0] = getDate() + name + " " + args[0];
      }
    }
    function getDate() {
      if (exports.inspectOpts.hideDate) {
        return "";
      }
      return (/* @__PURE__ */ new Date()).toISOString() + " ";
    }
    function log(...args) {
      return process.stderr.write(util.formatWithOptions(exports.inspectOpts, ...args) + "\n");
    }
    function save(namespaces) {
      if (namespaces) {
        process.env.DEBUG = namespaces;
      } else {
        delete process.env.DEBUG;
      }
    }
    function load() {
      return process.env.DEBUG;
    }
    function init(debug) {
      debug.inspectOpts = {};
      const keys = Object.keys(exports.inspectOpts);
      for (let i = 0; i < keys.length; i++) {
        debug.inspectOpts[keys[i]] = exports.inspectOpts[keys[i]];
      }
    }
    module.exports = require_common()(exports);
    var { formatters } = module.exports;
    formatters.o = function(v) {
      this.inspectOpts.colors = this.useColors;
      return util.inspect(v, this.inspectOpts).split("\n").map((str) => str.trim()).join(" ");
    };
    formatters.O = function(v) {
      this.inspectOpts.colors = this.useColors;
      return util.inspect(v, this.inspectOpts);
    };
  }
});

// node_modules/debug/src/index.js
var require_src = __commonJS({
  "node_modules/debug/src/index.js"(exports, module) {
    if (typeof process === "undefined" || process.type === "renderer" || process.browser === true || process.__nwjs) {
      module.exports = require_browser();
    } else {
      module.exports = require_node();
    }
  }
});

// dist/cli/daemon.js
import { homedir } from "node:os";
import { join as join4 } from "node:path";

// dist/daemon/control.js
import { spawn } from "node:child_process";
import { closeSync, mkdirSync, openSync, readFileSync as readFileSync2, statSync as statSync2 } from "node:fs";
import { dirname } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

// dist/daemon/instance.js
import { chmodSync, readFileSync, readlinkSync, statSync } from "node:fs";
import { chmod, stat, unlink } from "node:fs/promises";
import { createConnection } from "node:net";
import { platform } from "node:os";
import { join } from "node:path";
var SOCKET_PATH_MAX = platform() === "darwin" ? 103 : 107;
function assertSocketPath(socket) {
  const length = Buffer.byteLength(socket);
  if (length <= SOCKET_PATH_MAX)
    return;
  throw new SvcError("validation_error", `The daemon socket path ${socket} has ${length} bytes; Unix sockets allow at most ${SOCKET_PATH_MAX}.`, "Point SVC_HOME at a shorter directory, for example SVC_HOME=~/.svc.");
}
async function holdInstanceLock(paths) {
  const lockPath = `${paths.pidFile}.lock`;
  let release;
  const released = new Promise((done) => release = done);
  let held;
  const taken = new Promise((done) => held = done);
  const life = withLock(lockPath, { what: "the svc daemon", waitMs: 0 }, async () => {
    held();
    await released;
  });
  try {
    await Promise.race([taken, life]);
  } catch (err) {
    if (hasCode(err, "locked"))
      throw alreadyRunning(paths, lockPath, err);
    throw err;
  }
  return {
    async release() {
      release();
      await life.catch(() => void 0);
    }
  };
}
async function clearLeftovers(paths) {
  const removed = [];
  if (await exists(paths.socket)) {
    if (await answers(paths.socket)) {
      throw new SvcError("locked", `Something already answers on ${paths.socket}.`, "Stop the other daemon with `svc daemon stop` first.");
    }
    await unlink(paths.socket).catch(ignoreMissing);
    removed.push(paths.socket);
  }
  const pid = readPid(paths);
  if (pid !== null && !isAlive(pid)) {
    await unlink(paths.pidFile).catch(ignoreMissing);
    removed.push(paths.pidFile);
  }
  return removed;
}
async function listenPrivate(server, socket) {
  const listening = new Promise((resolve2, reject) => {
    server.once("listening", resolve2);
    server.once("error", reject);
  });
  const previous = process.umask(127);
  try {
    server.listen(socket);
  } finally {
    process.umask(previous);
  }
  await listening;
  await chmod(socket, 384);
  const mode = (await stat(socket)).mode & 511;
  if (mode !== 384)
    throw new SvcError("internal", `The socket ${socket} has mode ${mode.toString(8)}; expected 600.`);
}
async function writePidFile(paths, pid) {
  await writeAtomic(paths.pidFile, `${pid}
`);
}
async function removePidFile(paths, pid) {
  if (readPid(paths) === pid)
    await unlink(paths.pidFile).catch(ignoreMissing);
}
function readPid(paths) {
  try {
    const pid = Number.parseInt(readFileSync(paths.pidFile, "utf8"), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}
function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return hasCode(err, "EPERM");
  }
}
function assertPrivateDir(dir) {
  if ((statSync(dir).mode & 63) !== 0)
    chmodSync(dir, 448);
}
function alreadyRunning(paths, lockPath, cause) {
  const pid = readPid(paths) ?? readLockOwner(lockPath);
  const who = pid !== null && isAlive(pid) ? `pid ${pid}` : "another process";
  return new SvcError("locked", `An svc daemon is already running for ${paths.root} (${who}).`, "Check it with `svc daemon status`; stop it with `svc daemon stop` before starting another.", { cause });
}
function readLockOwner(lockPath) {
  const owner = join(lockPath, "owner");
  let text;
  try {
    text = readlinkSync(owner);
  } catch {
    try {
      text = readFileSync(owner, "utf8");
    } catch {
      return null;
    }
  }
  const pid = Number(text.trim().split(" ")[1]);
  return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
}
async function exists(path) {
  return stat(path).then(() => true, () => false);
}
function answers(socket) {
  return new Promise((resolve2) => {
    const conn = createConnection(socket);
    const done = (ok) => {
      conn.destroy();
      resolve2(ok);
    };
    conn.once("connect", () => done(true));
    conn.once("error", () => done(false));
    conn.setTimeout(1e3, () => done(false));
  });
}
function ignoreMissing(err) {
  if (!hasCode(err, "ENOENT"))
    throw err;
}
async function assertHealthy(paths) {
  const { status: status2 } = await requestDaemon(paths.socket, "GET", "/healthz", void 0, { timeoutMs: 5e3 });
  if (status2 !== 200)
    throw new SvcError("internal", `The new daemon answered /healthz with HTTP ${status2}.`, "See data/logs/daemon.log.");
}

// dist/daemon/control.js
async function probeDaemon(paths, timeoutMs = 3e3) {
  const filePid = readPid(paths);
  const pid = filePid !== null && isAlive(filePid) ? filePid : null;
  let health;
  let status2;
  try {
    health = (await requestDaemon(paths.socket, "GET", "/healthz", void 0, { timeoutMs })).status;
    status2 = (await requestDaemon(paths.socket, "GET", "/status", void 0, { timeoutMs })).body;
  } catch (err) {
    if (!isSvcError(err, "unavailable"))
      throw err;
    if (pid === null)
      return { state: "not-running", healthy: false, pid: null };
    return { state: "unhealthy", healthy: false, pid, reason: `pid ${pid} is alive but ${paths.socket} does not answer` };
  }
  if (health === 503)
    return { state: "stopping", healthy: false, pid: pid ?? status2.pid, status: status2 };
  const reason = health !== 200 ? `/healthz answered HTTP ${health}` : pid === null ? `no live pid in ${paths.pidFile}` : socketModeProblem(paths.socket);
  return reason ? { state: "unhealthy", healthy: false, pid: pid ?? status2.pid, status: status2, reason } : { state: "running", healthy: true, pid, status: status2 };
}
async function waitForHealthy(paths, timeoutMs, exited = () => null) {
  const deadline = Date.now() + timeoutMs;
  for (; ; ) {
    const probe = await probeDaemon(paths, 1e3);
    if (probe.healthy)
      return probe;
    const gone = exited();
    if (gone)
      throw new SvcError("unavailable", `The daemon exited before it became healthy (${gone}).${logTail(paths)}`, `See ${paths.daemonLog}.`);
    if (Date.now() > deadline) {
      throw new SvcError("unavailable", `The daemon did not become healthy within ${timeoutMs} ms (${probe.reason ?? probe.state}).${logTail(paths)}`, `See ${paths.daemonLog}.`);
    }
    await sleep(50);
  }
}
async function waitForExit(pid, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() > deadline)
      return false;
    await sleep(50);
  }
  return true;
}
function terminate(pid) {
  try {
    process.kill(pid, "SIGTERM");
    return true;
  } catch {
    return false;
  }
}
function spawnDetached(options) {
  mkdirSync(dirname(options.logFile), { recursive: true, mode: 448 });
  const fd = openSync(options.logFile, "a", 384);
  let exit = null;
  try {
    const child = spawn(options.node, options.args, { detached: true, stdio: ["ignore", fd, fd], env: options.env });
    child.on("exit", (code, signal) => exit = signal ? `signal ${signal}` : `exit code ${code}`);
    child.on("error", (err) => exit = err.message);
    child.unref();
    if (child.pid === void 0)
      throw new SvcError("internal", `Could not start ${options.node}.`);
    return { pid: child.pid, exited: () => exit };
  } finally {
    closeSync(fd);
  }
}
function socketModeProblem(socket) {
  try {
    const mode = statSync2(socket).mode & 511;
    return mode === 384 ? void 0 : `${socket} has mode ${mode.toString(8)}, not 600`;
  } catch {
    return `${socket} is missing`;
  }
}
function logTail(paths) {
  try {
    const lines = readFileSync2(paths.daemonLog, "utf8").trimEnd().split("\n").slice(-5);
    return `
Last log lines:
  ${lines.join("\n  ")}`;
  } catch {
    return "";
  }
}

// dist/daemon/daemon.js
import { createServer as createServer2 } from "node:http";

// dist/store/task-index.js
import { setImmediate as nextTurn2 } from "node:timers/promises";

// dist/fs/watcher.js
import { existsSync, statSync as statSync3, watch } from "node:fs";
import { basename, join as join2, resolve } from "node:path";
function watchTree(dir, onEvent, options = {}) {
  const root = resolve(dir);
  const watchers = /* @__PURE__ */ new Map();
  let closed = false;
  const arm = (status2) => {
    const statusDir = join2(root, status2);
    const stat3 = statSync3(statusDir, { throwIfNoEntry: false });
    const identity = stat3 ? `${stat3.ino}:${stat3.birthtimeMs}` : void 0;
    const current = watchers.get(status2);
    if (closed || current && current.identity === identity)
      return;
    current?.watcher.close();
    watchers.delete(status2);
    if (identity === void 0)
      return;
    try {
      const watcher = watch(statusDir, { persistent: false }, (eventType, name) => report(statusDir, status2, eventType, name, onEvent));
      watcher.on("error", (error) => {
        watchers.delete(status2);
        watcher.close();
        safely(onEvent, { type: "error", error });
      });
      watchers.set(status2, { watcher, identity });
    } catch (err) {
      safely(onEvent, { type: "error", error: err instanceof Error ? err : new Error(String(err)) });
    }
  };
  const statuses = options.statuses ?? STATUSES;
  statuses.forEach(arm);
  return {
    ready: Promise.resolve(),
    rearm: () => statuses.forEach(arm),
    async close() {
      closed = true;
      for (const { watcher } of watchers.values())
        watcher.close();
      watchers.clear();
    }
  };
}
function report(statusDir, status2, eventType, name, onEvent) {
  if (name === null)
    return safely(onEvent, { type: "error", error: new Error(`${statusDir}: a watch event without a file name (events may have been lost)`) });
  const id = toTaskId2(name.toString());
  if (!id)
    return;
  const path = join2(statusDir, `${id}.md`);
  const type = eventType === "change" ? "change" : existsSync(path) ? "add" : "unlink";
  safely(onEvent, { type, status: status2, id, path });
}
function toTaskId2(name) {
  if (name.startsWith(".") || !name.endsWith(".md"))
    return null;
  const id = basename(name).slice(0, -3);
  return isSafeId(id) ? id : null;
}
function safely(onEvent, event) {
  try {
    onEvent(event);
  } catch {
  }
}

// dist/store/task-index-sync.js
import { statSync as statSync4 } from "node:fs";
import { readdir, stat as stat2 } from "node:fs/promises";
import { setImmediate as nextTurn } from "node:timers/promises";

// dist/store/task-index-entry.js
import { readFileSync as readFileSync3 } from "node:fs";
import { basename as basename2 } from "node:path";
function readEntrySync(path, status2, id, stamp, mtimeMs) {
  const parsed = parseFrontmatter(readFileSync3(path, "utf8"), path);
  const task = parseTask(parsed.data, path);
  if (task.id !== id) {
    throw new SvcError("validation_error", `${path}: the file name says ${JSON.stringify(toTaskId(basename2(path)))} but the frontmatter id is ${JSON.stringify(task.id)}.`, "Rename the file to <id>.md or fix the id field.");
  }
  return toEntry({ task, status: status2, path, stamp, mtimeMs });
}
function fromStored(stored, stamp) {
  return toEntry({ task: stored.task, status: stored.status, path: stored.path, stamp, mtimeMs: Number(stamp.split(":")[2]) });
}
function toEntry(read) {
  const { task, status: status2, path, stamp, mtimeMs } = read;
  const copy = JSON.parse(JSON.stringify([task.id, task.title, task.priority, task.routing, task.dependsOn, task.lease ?? null, task.createdAt, task.updatedAt]));
  const [id, title, priority, routing, dependsOn, lease, createdAt, updatedAt] = copy;
  const agent = lease?.agent ?? routing.agent;
  const gate = task.gate ? { workflow: `${task.gate.workflow}`, current: `${task.gate.current}` } : void 0;
  return {
    id,
    status: status2,
    path,
    title,
    priority,
    routing,
    dependsOn: dependsOn.length ? dependsOn : NO_DEPENDENCIES,
    lease: lease ?? void 0,
    agent,
    createdAt,
    updatedAt,
    mtimeMs,
    stamp,
    gate,
    dispatchFailures: toDispatchFailures(task.metadata),
    moved: task.status !== status2
  };
}
var NO_DEPENDENCIES = [];

// dist/store/task-index-sync.js
function newIndexState(paths, options) {
  const byStatus = Object.fromEntries(STATUSES.map((s) => [s, /* @__PURE__ */ new Set()]));
  return { paths, options, entries: /* @__PURE__ */ new Map(), byStatus, invalid: /* @__PURE__ */ new Map(), gen: /* @__PURE__ */ new Map(), dirs: /* @__PURE__ */ new Map(), closed: false };
}
function* entriesOf(state, status2) {
  for (const id of state.byStatus[status2]) {
    const entry = state.entries.get(id);
    if (entry?.status === status2)
      yield entry;
  }
}
function loadFile(state, file, gen) {
  if (gen !== -1 && (state.gen.get(file.id) ?? 0) !== gen)
    return;
  const path = state.paths.taskFile(file.status, file.id);
  let stamp = null;
  try {
    const s = statSync4(path);
    stamp = toStamp(s);
    const entry = readEntrySync(path, file.status, file.id, stamp, s.mtimeMs);
    const seen = state.entries.get(file.id);
    if (!seen || seen.status === file.status || isNewer(entry, seen))
      setEntry(state, entry, true);
  } catch (err) {
    if (hasCode(err, "ENOENT"))
      return void relocate(state, file.id).catch((next) => fail(state, next));
    state.byStatus[file.status].delete(file.id);
    setInvalid(state, path, file.status, err, stamp);
  }
}
async function relocate(state, id, attempt = 0) {
  const gen = (state.gen.get(id) ?? 0) + 1;
  state.gen.set(id, gen);
  const copies = STATUSES.map((status2) => ({ status: status2, stamp: stampOf(state.paths.taskFile(status2, id)) })).filter((copy) => copy.stamp !== null);
  let best;
  const bad = [];
  for (const { status: status2, stamp } of copies) {
    const path = state.paths.taskFile(status2, id);
    const known = state.entries.get(id);
    if (known?.path === path && known.stamp === stamp) {
      if (!best || isNewer(known, best))
        best = known;
      continue;
    }
    try {
      const entry = fromStored(await readTaskFile(path), stamp);
      if (!best || isNewer(entry, best))
        best = entry;
    } catch (err) {
      if (hasCode(err, "ENOENT") && attempt < 3)
        return relocate(state, id, attempt + 1);
      bad.push({ path, status: status2, err, stamp });
    }
  }
  if (state.gen.get(id) !== gen)
    return;
  if (copies.length > 1)
    call(state, () => state.options.onNeedsRepair?.(id, "duplicate"));
  for (const status2 of STATUSES)
    state.invalid.delete(state.paths.taskFile(status2, id));
  for (const b of bad)
    setInvalid(state, b.path, b.status, b.err, b.stamp);
  if (best)
    setEntry(state, best);
  else
    removeEntry(state, id);
}
async function syncDir(state, status2, mode) {
  const started = Date.now();
  const dirStat = await statDir(state, status2);
  const names = await readdir(state.paths.statusDir(status2)).catch((err) => hasCode(err, "ENOENT") ? [] : Promise.reject(err));
  const seen = /* @__PURE__ */ new Set();
  const toStat = [];
  const candidates = [];
  for (const name of names) {
    const id = toTaskId(name);
    if (!id)
      continue;
    seen.add(id);
    const known = state.entries.get(id);
    if (known ? known.status === status2 && mode === "names" : state.byStatus[status2].has(id))
      continue;
    const path = known?.status === status2 ? known.path : state.paths.taskFile(status2, id);
    if (known?.status !== status2 && state.invalid.has(path) && mode === "names")
      continue;
    if (mode === "stat" && (known?.status === status2 || state.invalid.has(path)))
      toStat.push(id);
    else
      candidates.push(id);
  }
  await inBatches(toStat, (id) => {
    const path = state.paths.taskFile(status2, id);
    if (stampOf(path) !== (state.entries.get(id)?.stamp ?? state.invalid.get(path)?.stamp))
      candidates.push(id);
  });
  for (const id of state.byStatus[status2])
    if (!seen.has(id))
      candidates.push(id);
  recordDir(state, status2, dirStat, started);
  return candidates;
}
async function isDirty(state, status2) {
  const seen = state.dirs.get(status2);
  const now = await statDir(state, status2);
  if (!seen || !now)
    return !!now !== !!seen;
  const racyMs = now.mtimeNs % 1000000000n === 0n ? RACY_MS.coarse : RACY_MS.fine;
  return now.mtimeNs !== seen.mtimeNs || Number(now.mtimeNs / 1000000n) >= seen.syncedAt - racyMs;
}
function fail(state, err, then) {
  if (state.closed)
    return;
  state.options.onError?.(err);
  then?.().catch((next) => state.options.onError?.(next));
}
async function statDir(state, status2) {
  return stat2(state.paths.statusDir(status2), { bigint: true }).catch((err) => hasCode(err, "ENOENT") ? null : Promise.reject(err));
}
function recordDir(state, status2, dirStat, syncedAt) {
  if (dirStat)
    state.dirs.set(status2, { mtimeNs: dirStat.mtimeNs, syncedAt });
  else
    state.dirs.delete(status2);
}
var RACY_MS = { fine: 20, coarse: 2e3 };
function setEntry(state, entry, quiet = false) {
  const before = state.entries.get(entry.id);
  for (const status2 of STATUSES)
    if (status2 !== entry.status)
      state.byStatus[status2].delete(entry.id);
  state.byStatus[entry.status].add(entry.id);
  state.entries.set(entry.id, entry);
  if (entry.moved)
    call(state, () => state.options.onNeedsRepair?.(entry.id, "moved"));
  if (!quiet && before?.status !== entry.status)
    notify(state, { id: entry.id, ...before ? { from: before.status } : {}, to: entry.status });
}
function removeEntry(state, id) {
  const before = state.entries.get(id);
  for (const status2 of STATUSES)
    state.byStatus[status2].delete(id);
  state.entries.delete(id);
  if (before)
    notify(state, { id, from: before.status });
}
function setInvalid(state, path, status2, err, stamp) {
  const message = err instanceof Error ? err.message : String(err);
  const seen = state.invalid.get(path);
  state.invalid.set(path, { path, status: status2, message, stamp: stamp ?? "" });
  if (seen?.message !== message || seen.stamp !== stamp)
    call(state, () => state.options.onInvalid?.({ path, status: status2, message }));
}
function notify(state, change) {
  call(state, () => state.options.onChange?.(change));
}
function call(state, fn) {
  try {
    fn();
  } catch (err) {
    fail(state, err);
  }
}
function isNewer(a, b) {
  const byUpdated = Date.parse(a.updatedAt) - Date.parse(b.updatedAt);
  return byUpdated !== 0 ? byUpdated > 0 : a.mtimeMs > b.mtimeMs;
}
function stampOf(path) {
  const s = statSync4(path, { throwIfNoEntry: false });
  return s ? toStamp(s) : null;
}
function toStamp(s) {
  return `${s.ino}:${s.size}:${s.mtimeMs}`;
}
async function inBatches(items, fn, size = 500) {
  for (let i = 0; i < items.length; i += size) {
    if (i > 0)
      await nextTurn();
    for (const item of items.slice(i, i + size))
      fn(item);
  }
}

// dist/store/task-index.js
async function createTaskIndex(paths, options = {}) {
  const state = newIndexState(paths, options);
  const work = createWork(state);
  const watcher = options.watch === false ? null : watchEvents(state, work.update, work.rescan);
  await loadInitial(state);
  const loaded = loadTerminal(state);
  loaded.catch((err) => fail(state, err));
  const refresh = coalesce(async () => {
    const dirty = await Promise.all(ACTIVE_STATUSES.map(async (status2) => await isDirty(state, status2) ? syncDir(state, status2, "stat") : []));
    await work.update(dirty.flat());
  });
  const timer = setInterval(() => {
    watcher?.rearm();
    void work.rescan().catch((err) => fail(state, err));
  }, options.rescanIntervalMs ?? 5e3);
  timer.unref();
  return {
    loaded,
    watching: watcher ? watcher.ready : Promise.resolve(),
    get: (id) => state.entries.get(id),
    summaries: (status2) => status2 ? entriesOf(state, status2) : state.entries.values(),
    counts: () => Object.fromEntries(STATUSES.map((s) => [s, state.byStatus[s].size])),
    invalid: () => [...state.invalid.values()].map(({ path, status: status2, message }) => ({ path, status: status2, message })),
    update: work.update,
    refresh: () => work.track(refresh()),
    rescan: work.rescan,
    async close() {
      state.closed = true;
      clearInterval(timer);
      await watcher?.close();
      await Promise.allSettled([loaded, ...work.inflight]);
    }
  };
}
var BURST = 500;
var LOAD_BATCH = 100;
function createWork(state) {
  const inflight = /* @__PURE__ */ new Set();
  const track = (promise) => {
    inflight.add(promise);
    void promise.finally(() => inflight.delete(promise)).catch(() => void 0);
    return promise;
  };
  const update = (ids) => track(Promise.all(ids.map((id) => relocate(state, id))).then(() => void 0));
  let rescans = 0;
  let wantFull = false;
  const run = coalesce(async () => {
    const full = wantFull || ++rescans % (state.options.terminalRescanEvery ?? 60) === 0;
    wantFull = false;
    const found = await Promise.all(STATUSES.map(async (status2) => {
      if (isActive(status2) || full)
        return syncDir(state, status2, "stat");
      return await isDirty(state, status2) ? syncDir(state, status2, "names") : [];
    }));
    const ids = found.flat();
    await update(ids);
    if (ids.length)
      state.options.onRescanFound?.({ count: ids.length, full });
  });
  const rescan = (opts = {}) => {
    wantFull ||= !!opts.full;
    return track(run());
  };
  return { inflight, track, update, rescan };
}
function watchEvents(state, update, rescan) {
  const pending = /* @__PURE__ */ new Set();
  let flush;
  const watcher = watchTree(state.paths.tasks, (event) => {
    if (state.closed)
      return;
    if (event.type === "error")
      return fail(state, event.error, () => rescan({ full: true }));
    pending.add(event.id);
    flush ??= setTimeout(() => {
      flush = void 0;
      const ids = [...pending];
      pending.clear();
      void (ids.length > BURST ? rescan({ full: true }) : update(ids)).catch((err) => fail(state, err));
    }, 5);
  }, { statuses: ACTIVE_STATUSES });
  return {
    ready: watcher.ready,
    rearm: watcher.rearm,
    close: async () => {
      if (flush)
        clearTimeout(flush);
      await watcher.close();
    }
  };
}
function isActive(status2) {
  return ACTIVE_STATUSES.includes(status2);
}
async function loadInitial(state) {
  const started = Date.now();
  const dirStats = await Promise.all(STATUSES.map((status2) => statDir(state, status2)));
  const names = await listNames(state.paths);
  const files = [];
  for (const [id, statuses] of names) {
    if (statuses.length > 1)
      state.options.onNeedsRepair?.(id, "duplicate");
    for (const status2 of statuses) {
      if (status2 === "done" || status2 === "cancelled")
        state.byStatus[status2].add(id);
      else
        files.push({ id, status: status2 });
    }
  }
  for (const file of files)
    loadFile(state, file, -1);
  STATUSES.forEach((status2, i) => recordDir(state, status2, dirStats[i], started));
}
async function loadTerminal(state) {
  const files = [];
  for (const status2 of ["done", "cancelled"]) {
    for (const id of state.byStatus[status2])
      if (!state.entries.has(id))
        files.push({ id, status: status2, gen: state.gen.get(id) ?? 0 });
  }
  for (let i = 0; i < files.length && !state.closed; i += LOAD_BATCH) {
    await nextTurn2();
    for (const file of files.slice(i, i + LOAD_BATCH))
      loadFile(state, file, file.gen);
  }
}
function coalesce(fn) {
  let running = null;
  let queued = null;
  const run = () => {
    if (!running) {
      running = fn().finally(() => running = null);
      return running;
    }
    queued ??= running.catch(() => void 0).then(() => (queued = null, run()));
    return queued;
  };
  return run;
}

// dist/daemon/log.js
var import_debug = __toESM(require_src(), 1);
import { createWriteStream, mkdirSync as mkdirSync2 } from "node:fs";
import { dirname as dirname2 } from "node:path";
import { format } from "node:util";
function createLog(options) {
  mkdirSync2(dirname2(options.file), { recursive: true, mode: 448 });
  const stream = createWriteStream(options.file, { flags: "a", mode: 384 });
  stream.on("error", () => void 0);
  const now = options.now ?? (() => /* @__PURE__ */ new Date());
  let closed = false;
  const write = (line) => {
    if (!closed)
      stream.write(line);
  };
  const entry = (level) => (event, fields) => write(`${now().toISOString()} ${level} ${event}${fields && Object.keys(fields).length ? ` ${safeJson(fields)}` : ""}
`);
  return {
    info: entry("info"),
    warn: entry("warn"),
    error: entry("error"),
    debug(namespace) {
      const verbose = (0, import_debug.default)(`svc:${namespace}`);
      verbose.log = (...args) => write(`${format(...args)}
`);
      return (formatter, ...args) => verbose(formatter, ...args);
    },
    alert(text) {
      const line = text.endsWith("\n") ? text : `${text}
`;
      if (options.stderr)
        options.stderr(line);
      else
        write(`${now().toISOString()} alert ${line}`);
    },
    close: () => new Promise((done) => {
      if (closed)
        return done();
      closed = true;
      stream.end(() => done());
    })
  };
}
function safeJson(fields) {
  try {
    return JSON.stringify(fields, (_key, value) => value instanceof Error ? { message: value.message, code: value.code } : value);
  } catch {
    return '{"unserializable":true}';
  }
}

// node_modules/polka/build.mjs
import http from "node:http";
import { setImmediate } from "node:timers";

// node_modules/regexparam/dist/index.mjs
function parse(input, loose) {
  if (input instanceof RegExp) return { keys: false, pattern: input };
  var c, o, tmp, ext, keys = [], pattern = "", arr = input.split("/");
  arr[0] || arr.shift();
  while (tmp = arr.shift()) {
    c = tmp[0];
    if (c === "*") {
      keys.push(c);
      pattern += tmp[1] === "?" ? "(?:/(.*))?" : "/(.*)";
    } else if (c === ":") {
      o = tmp.indexOf("?", 1);
      ext = tmp.indexOf(".", 1);
      keys.push(tmp.substring(1, !!~o ? o : !!~ext ? ext : tmp.length));
      pattern += !!~o && !~ext ? "(?:/([^/]+?))?" : "/([^/]+?)";
      if (!!~ext) pattern += (!!~o ? "?" : "") + "\\" + tmp.substring(ext);
    } else {
      pattern += "/" + tmp;
    }
  }
  return {
    keys,
    pattern: new RegExp("^" + pattern + (loose ? "(?=$|/)" : "/?$"), "i")
  };
}

// node_modules/trouter/index.mjs
var MAP = {
  "": 0,
  GET: 1,
  HEAD: 2,
  PATCH: 3,
  OPTIONS: 4,
  CONNECT: 5,
  DELETE: 6,
  TRACE: 7,
  POST: 8,
  PUT: 9
};
var Trouter = class {
  constructor() {
    this.routes = [];
    this.all = this.add.bind(this, "");
    this.get = this.add.bind(this, "GET");
    this.head = this.add.bind(this, "HEAD");
    this.patch = this.add.bind(this, "PATCH");
    this.options = this.add.bind(this, "OPTIONS");
    this.connect = this.add.bind(this, "CONNECT");
    this.delete = this.add.bind(this, "DELETE");
    this.trace = this.add.bind(this, "TRACE");
    this.post = this.add.bind(this, "POST");
    this.put = this.add.bind(this, "PUT");
  }
  use(route2, ...fns) {
    let handlers = [].concat.apply([], fns);
    let { keys, pattern } = parse(route2, true);
    this.routes.push({ keys, pattern, method: "", handlers, midx: MAP[""] });
    return this;
  }
  add(method, route2, ...fns) {
    let { keys, pattern } = parse(route2);
    let handlers = [].concat.apply([], fns);
    this.routes.push({ keys, pattern, method, handlers, midx: MAP[method] });
    return this;
  }
  find(method, url) {
    let midx = MAP[method];
    let isHEAD = midx === 2;
    let i = 0, j = 0, k, tmp, arr = this.routes;
    let matches = [], params = {}, handlers = [];
    for (; i < arr.length; i++) {
      tmp = arr[i];
      if (tmp.midx === midx || tmp.midx === 0 || isHEAD && tmp.midx === 1) {
        if (tmp.keys === false) {
          matches = tmp.pattern.exec(url);
          if (matches === null) continue;
          if (matches.groups !== void 0) for (k in matches.groups) params[k] = matches.groups[k];
          tmp.handlers.length > 1 ? handlers = handlers.concat(tmp.handlers) : handlers.push(tmp.handlers[0]);
        } else if (tmp.keys.length > 0) {
          matches = tmp.pattern.exec(url);
          if (matches === null) continue;
          for (j = 0; j < tmp.keys.length; ) params[tmp.keys[j]] = matches[++j];
          tmp.handlers.length > 1 ? handlers = handlers.concat(tmp.handlers) : handlers.push(tmp.handlers[0]);
        } else if (tmp.pattern.test(url)) {
          tmp.handlers.length > 1 ? handlers = handlers.concat(tmp.handlers) : handlers.push(tmp.handlers[0]);
        }
      }
    }
    return { params, handlers };
  }
};

// node_modules/@polka/url/build.mjs
import * as qs from "node:querystring";
function parse3(req) {
  let raw = req.url;
  if (raw == null) return;
  let prev = req._parsedUrl;
  if (prev && prev.raw === raw) return prev;
  let pathname = raw, search = "", query, hash;
  if (raw.length > 1) {
    let idx = raw.indexOf("#", 1);
    if (idx !== -1) {
      hash = raw.substring(idx);
      pathname = raw.substring(0, idx);
    }
    idx = pathname.indexOf("?", 1);
    if (idx !== -1) {
      search = pathname.substring(idx);
      pathname = pathname.substring(0, idx);
      if (search.length > 1) {
        query = qs.parse(search.substring(1));
      }
    }
  }
  return req._parsedUrl = { pathname, search, query, hash, raw };
}

// node_modules/polka/build.mjs
function onError(err, req, res) {
  let code = typeof err.status === "number" && err.status;
  code = res.statusCode = code && code >= 100 ? code : 500;
  if (typeof err === "string" || Buffer.isBuffer(err)) res.end(err);
  else res.end(err.message || http.STATUS_CODES[code]);
}
var mount = (fn) => fn instanceof Polka ? fn.attach : fn;
var Polka = class _Polka extends Trouter {
  constructor(opts = {}) {
    super();
    this.parse = parse3;
    this.server = opts.server;
    this.handler = this.handler.bind(this);
    this.onError = opts.onError || onError;
    this.onNoMatch = opts.onNoMatch || this.onError.bind(null, { status: 404 });
    this.attach = (req, res) => setImmediate(this.handler, req, res);
  }
  use(base, ...fns) {
    if (base === "/") {
      super.use(base, fns.map(mount));
    } else if (typeof base === "function" || base instanceof _Polka) {
      super.use("/", [base, ...fns].map(mount));
    } else {
      super.use(
        base,
        (req, _, next) => {
          if (typeof base === "string") {
            let len = base.length;
            base.startsWith("/") || len++;
            req.url = req.url.substring(len) || "/";
            req.path = req.path.substring(len) || "/";
          } else {
            req.url = req.url.replace(base, "") || "/";
            req.path = req.path.replace(base, "") || "/";
          }
          if (req.url.charAt(0) !== "/") {
            req.url = "/" + req.url;
          }
          next();
        },
        fns.map(mount),
        (req, _, next) => {
          req.path = req._parsedUrl.pathname;
          req.url = req.path + req._parsedUrl.search;
          next();
        }
      );
    }
    return this;
  }
  listen() {
    (this.server = this.server || http.createServer()).on("request", this.attach);
    this.server.listen.apply(this.server, arguments);
    return this;
  }
  handler(req, res, next) {
    let info = this.parse(req), path = info.pathname;
    let obj = this.find(req.method, req.path = path);
    req.url = path + info.search;
    req.originalUrl = req.originalUrl || req.url;
    req.query = info.query || {};
    req.search = info.search;
    req.params = obj.params;
    if (path.length > 1 && path.indexOf("%", 1) !== -1) {
      for (let k in req.params) {
        try {
          req.params[k] = decodeURIComponent(req.params[k]);
        } catch (e) {
        }
      }
    }
    let i = 0, arr = obj.handlers.concat(this.onNoMatch), len = arr.length;
    let loop = async () => res.finished || i < len && arr[i++](req, res, next);
    (next = next || ((err) => err ? this.onError(err, req, res, next) : loop().catch(next)))();
  }
};
function build_default(opts) {
  return new Polka(opts);
}

// dist/daemon/http.js
var MAX_BODY_BYTES = 1024 * 1024;
function route(handler, onFailure2) {
  return async (req, res) => {
    try {
      await handler(req, res);
    } catch (err) {
      sendError(res, err, req, onFailure2);
    }
  };
}
function sendJson(res, status2, body) {
  if (res.headersSent || res.destroyed)
    return void res.end();
  const text = JSON.stringify(body);
  res.writeHead(status2, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text) });
  res.end(text);
}
function sendError(res, err, req, onFailure2) {
  const error = toSvcError(err);
  if (req && onFailure2 && error.status >= 500)
    onFailure2(error, req);
  sendJson(res, error.status, error.toJSON());
}
async function readJson(req, limit = MAX_BODY_BYTES) {
  const text = await readBody(req, limit);
  if (!text.trim())
    return void 0;
  try {
    return JSON.parse(text);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new SvcError("validation_error", `The request body is not valid JSON: ${reason}.`, 'Send a JSON object, for example {"tool": "svc_status", "params": {}}.');
  }
}
function assertObject(value, what, example) {
  if (value !== null && typeof value === "object" && !Array.isArray(value))
    return value;
  throw new SvcError("validation_error", `${what} must be a JSON object; got ${describe(value)}.`, `Send for example ${example}.`);
}
var DRAIN_LIMIT = 64 * 1024 * 1024;
function readBody(req, limit) {
  return new Promise((resolve2, reject) => {
    const chunks = [];
    let size = 0;
    req.on("data", (chunk) => {
      size += chunk.length;
      if (size <= limit)
        chunks.push(chunk);
      else if (size > DRAIN_LIMIT)
        req.destroy();
    });
    req.on("error", reject);
    req.on("end", () => {
      if (size > limit)
        reject(tooLarge(size, limit));
      else
        resolve2(Buffer.concat(chunks).toString("utf8"));
    });
  });
}
function tooLarge(size, limit) {
  return new SvcError("too_large", `The request body has ${size} bytes; the limit is ${limit} (1 MiB).`, "Keep large material in files and pass their paths.");
}
function describe(value) {
  if (value === void 0)
    return "an empty body";
  if (value === null)
    return "null";
  return Array.isArray(value) ? "an array" : `a ${typeof value}`;
}

// dist/daemon/routes.js
var HOOK_NAMES = ["session-end", "agent-end", "before-compaction", "message-received"];
function createRoutes(ctx) {
  const fail2 = (err, req) => ctx.log.error("request.failed", { method: req.method, url: req.url, code: err.code, message: err.message, cause: err.cause });
  const wrap = (handler) => route(handler, fail2);
  const app = build_default({
    onError: (err, req, res) => sendError(res, err, req, fail2),
    onNoMatch: (req, res) => sendError(res, new SvcError("not_found", `No route ${req.method} ${req.path}.`, `Routes: ${ROUTES}.`))
  });
  app.get("/healthz", wrap((_req, res) => healthz(ctx, res)));
  app.get("/status", wrap(async (_req, res) => sendJson(res, 200, await ctx.status())));
  app.post("/v1/tool/invoke", wrap((req, res) => invoke(ctx, req, res)));
  app.post("/v1/event/:name", wrap((req, res) => hook(ctx, req, res)));
  app.get("/v1/spawns/wait", wrap((req, res) => waitSpawn(ctx, req, res)));
  app.post("/v1/spawns/:id/result", wrap((req, res) => spawnResult(ctx, req, res)));
  app.get("/v1/tasks", wrap(async (req, res) => sendJson(res, 200, { ok: true, ...await ctx.listTasks(toStatusQuery(req)) })));
  app.post("/v1/scheduler/tick", wrap(async (_req, res) => (assertServing(ctx), sendJson(res, 200, { ok: true, actions: await ctx.scheduler.tick() }))));
  app.get("/v1/scheduler/plan", wrap(async (_req, res) => sendJson(res, 200, { ok: true, actions: await ctx.scheduler.dryRun() })));
  return (req, res) => void app.handler(req, res, void 0);
}
var ROUTES = "GET /healthz, GET /status, POST /v1/tool/invoke, POST /v1/event/{session-end|agent-end|before-compaction|message-received}, GET /v1/spawns/wait, POST /v1/spawns/{id}/result, GET /v1/tasks?status=, POST /v1/scheduler/tick, GET /v1/scheduler/plan";
var ResultBody = external_exports.object({
  ok: external_exports.boolean(),
  sessionKey: external_exports.string().optional(),
  error: external_exports.string().optional(),
  reason: external_exports.string().optional()
});
function healthz(ctx, res) {
  if (!ctx.isStopping())
    return sendJson(res, 200, { ok: true });
  const error = new SvcError("unavailable", "The svc daemon is shutting down.", "Wait for the supervisor to restart it, or run `svc daemon start`.");
  sendJson(res, 503, { ...error.toJSON(), reason: "stopping" });
}
function assertServing(ctx) {
  if (ctx.isStopping())
    throw new SvcError("unavailable", "The svc daemon is shutting down and takes no new requests.", "Retry once it is back (`svc daemon status`).");
}
async function invoke(ctx, req, res) {
  assertServing(ctx);
  const body = assertObject(await readJson(req), "The tool envelope", '{"tool": "svc_status", "params": {}}');
  await ctx.beforeTool();
  const result = await invokeTool(ctx.tools, body.tool, body.params, ctx.toolContext);
  sendJson(res, 200, { ok: true, result: result ?? null });
}
async function hook(ctx, req, res) {
  const name = req.params?.name ?? "";
  if (!HOOK_NAMES.includes(name)) {
    throw new SvcError("not_found", `Unknown event ${JSON.stringify(name)}.`, `Events: ${HOOK_NAMES.join(", ")}.`);
  }
  const body = await readJson(req) ?? {};
  const payload = assertObject(body, `The ${name} event payload`, '{"sessionKey": "agent:dev:svc-TASK-2026-11-21-001"}');
  await ctx.onHook(name, payload, pluginOf(req) ?? void 0);
  sendJson(res, 202, { ok: true });
}
async function waitSpawn(ctx, req, res) {
  assertServing(ctx);
  const plugin = pluginOf(req);
  if (!plugin)
    throw new SvcError("validation_error", "GET /v1/spawns/wait needs the header x-svc-plugin naming the plugin.", "Send `x-svc-plugin: <plugin id>`, for example `x-svc-plugin: svc`.");
  const gone = new AbortController();
  res.on("close", () => gone.abort());
  const spawn2 = await ctx.spawns.take(plugin, ctx.spawnWaitMs, gone.signal);
  if (spawn2 && (res.destroyed || gone.signal.aborted))
    return ctx.spawns.requeue(spawn2);
  if (!spawn2) {
    res.writeHead(204);
    return void res.end();
  }
  ctx.log.info("spawn.taken", { id: spawn2.id, taskId: spawn2.taskId, plugin });
  sendJson(res, 200, spawn2);
}
async function spawnResult(ctx, req, res) {
  const id = req.params?.id ?? "";
  const parsed = ResultBody.safeParse(await readJson(req));
  if (!parsed.success) {
    throw new SvcError("validation_error", `Invalid spawn result for ${id}:
${formatIssues(parsed.error.issues)}`, 'Send {"ok": true, "sessionKey": "..."} or {"ok": false, "error": "...", "reason": "..."}.');
  }
  const outcome = ctx.spawns.settle(id, parsed.data);
  if (outcome === "unknown")
    throw new SvcError("not_found", `No spawn ${JSON.stringify(id)} is waiting for a result.`, "Post results only for spawns handed out by GET /v1/spawns/wait of this daemon.");
  ctx.log.info("spawn.result", { id, ok: parsed.data.ok, reason: parsed.data.reason, repeated: outcome === "already" });
  sendJson(res, 200, { ok: true });
}
function toStatusQuery(req) {
  const value = new URL(req.url ?? "/", "http://svc").searchParams.get("status");
  if (value === null || value === "")
    return void 0;
  if (STATUSES.includes(value))
    return value;
  throw new SvcError("validation_error", `Unknown status ${JSON.stringify(value)}.`, `Use one of: ${STATUSES.join(", ")}.`);
}
function pluginOf(req) {
  const value = req.headers["x-svc-plugin"];
  const id = (Array.isArray(value) ? value[0] : value)?.trim();
  return id && id.length <= 128 ? id : null;
}

// dist/daemon/heal.js
function createHealer(store, log, onHealed) {
  const pending = /* @__PURE__ */ new Set();
  const running = /* @__PURE__ */ new Set();
  let closed = false;
  const heal = async (id, why) => {
    try {
      const result = await store.commit(id, (current) => {
        if (current.task.status === current.status)
          return null;
        return { task: current.task, body: current.body, status: current.status, reason: "moved on disk" };
      }, "filesystem");
      if (result.changed)
        log(`healed ${id} (${why}): its frontmatter now says ${result.after.status}`);
      onHealed(id);
    } catch (err) {
      log(`could not repair ${id} (${why}): ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      pending.delete(id);
    }
  };
  return {
    repair(id, why) {
      if (closed || pending.has(id))
        return;
      pending.add(id);
      const job = heal(id, why);
      running.add(job);
      void job.finally(() => running.delete(job));
    },
    async close() {
      closed = true;
      await Promise.allSettled([...running]);
    }
  };
}
async function recordInvalid(paths, clock, log, file) {
  log.warn("task.invalid", { path: file.path, message: file.message });
  const name = file.path.split("/").pop() ?? "";
  await appendEvents(paths.root, clock(), [{ type: "task.invalid", ...name.endsWith(".md") ? { taskId: name.slice(0, -3) } : {}, actor: "system", payload: { path: file.path, status: file.status, message: file.message } }]).catch(() => void 0);
}

// dist/daemon/scheduling.js
import { readFileSync as readFileSync4 } from "node:fs";
import { readdir as readdir2, unlink as unlink2 } from "node:fs/promises";

// dist/engine/murmur.js
function evaluateMurmur(state, view, now) {
  const taskId = state.currentReviewTaskId;
  if (taskId) {
    if (view.reviewStatus === "done")
      return { kind: "completed", taskId };
    if (view.reviewStatus === "cancelled")
      return { kind: "ended", taskId, why: "cancelled" };
    if (view.reviewStatus === void 0 && view.indexLoaded)
      return { kind: "ended", taskId, why: "missing" };
    const ageMs = now.getTime() - Date.parse(state.reviewStartedAt ?? "");
    if (ageMs >= view.murmur.reviewTimeoutMs)
      return { kind: "stale", taskId, ageMs };
    return { kind: "reviewing", taskId };
  }
  for (const trigger of view.murmur.triggers) {
    const reason = firingReason(trigger, state, view, now);
    if (reason === null)
      continue;
    if (view.running >= view.maxConcurrentDispatches)
      return { kind: "held", trigger: trigger.kind, reason, running: view.running };
    return { kind: "review", trigger: trigger.kind, reason };
  }
  return { kind: "idle" };
}
function firingReason(trigger, state, view, now) {
  const { completionsSinceLastReview: done, failuresSinceLastReview: failed } = state;
  switch (trigger.kind) {
    case "queueEmpty":
      if (view.ready || view.inProgress || done + failed === 0)
        return null;
      return `the team's ready and in-progress queues are empty (${done} completed, ${failed} failed since the last review)`;
    case "completionBatch":
      return done >= trigger.threshold ? `${done} tasks completed since the last review (threshold ${trigger.threshold})` : null;
    case "failureBatch":
      return failed >= trigger.threshold ? `${failed} failed dispatches or deadletters since the last review (threshold ${trigger.threshold})` : null;
    case "interval": {
      if (!state.lastReviewAt)
        return "no review has run yet";
      const elapsed = now.getTime() - Date.parse(state.lastReviewAt);
      return elapsed >= trigger.intervalMs ? `${elapsed} ms since the last review (interval ${trigger.intervalMs} ms)` : null;
    }
  }
}
function applyDecision(state, decision, now, taskId) {
  switch (decision.kind) {
    case "completed":
      return { ...state, lastReviewAt: now.toISOString(), completionsSinceLastReview: 0, failuresSinceLastReview: 0, currentReviewTaskId: null, reviewStartedAt: null };
    case "ended":
    case "stale":
      return { ...state, currentReviewTaskId: null, reviewStartedAt: null };
    case "review":
      return { ...state, currentReviewTaskId: taskId ?? null, reviewStartedAt: now.toISOString(), lastTriggeredBy: decision.trigger };
    default:
      return state;
  }
}

// dist/engine/murmur-review.js
import { readFile } from "node:fs/promises";
var REVIEW_TITLE_PREFIX = "Murmur review: ";
var SUMMARY_LIMIT = 20;
async function buildReview(input) {
  const { team, trigger, reason, state } = input;
  const sections = [];
  for (const name of team.murmur?.context ?? []) {
    const text = name === "taskSummary" ? formatSummary(input.summary(), state) : await readDoc(input.paths.orgDoc(name));
    if (text !== null)
      sections.push(`## ${toHeading(name)}

${text.trim()}
`);
  }
  const intro = [
    `Review of team ${team.name || team.id} (${team.id}), triggered by \`${trigger}\`: ${reason}.`,
    "",
    "Look at the team's recent work, decide what comes next and create follow-up tasks with svc_dispatch;",
    "then complete this task with svc_task_complete (completing it resets the review counters).",
    ""
  ].join("\n");
  return {
    title: `${REVIEW_TITLE_PREFIX}${team.id} (${trigger})`,
    body: [intro, ...sections].join("\n"),
    status: "ready",
    routing: { agent: team.orchestrator },
    metadata: { murmur: { team: team.id, trigger } },
    createdBy: "murmur",
    actor: "scheduler"
  };
}
function isReviewTitle(title, teamId) {
  return title.startsWith(teamId === void 0 ? REVIEW_TITLE_PREFIX : `${REVIEW_TITLE_PREFIX}${teamId} (`);
}
function formatSummary(summary, state) {
  const line = (t) => `- ${t.id} ${JSON.stringify(t.title)} (${t.status}${t.dispatchFailures ? `, ${t.dispatchFailures} failed dispatches` : ""})`;
  const list = (items) => items.length ? items.slice(0, SUMMARY_LIMIT).map(line).join("\n") + (items.length > SUMMARY_LIMIT ? `
- ... and ${items.length - SUMMARY_LIMIT} more` : "") : "- none";
  const { ready, inProgress, blocked } = summary.open;
  return [
    `Since ${state.lastReviewAt ? `the last review (${state.lastReviewAt})` : "the start (no review has run yet)"}: ${state.completionsSinceLastReview} completed, ${state.failuresSinceLastReview} failed dispatches or deadletters.`,
    `Open now: ${ready} ready, ${inProgress} in progress, ${blocked} blocked.`,
    "",
    "Completed:",
    list(summary.completed),
    "",
    "Failing or deadlettered:",
    list(summary.failing)
  ].join("\n");
}
async function readDoc(file) {
  try {
    return await readFile(file, "utf8");
  } catch (err) {
    if (hasCode(err, "ENOENT"))
      return null;
    throw err;
  }
}
function toHeading(name) {
  const words = name.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/[-_]/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1).toLowerCase();
}

// dist/engine/murmur-state.js
import { readFile as readFile2 } from "node:fs/promises";
function newMurmurState() {
  return { lastReviewAt: null, completionsSinceLastReview: 0, failuresSinceLastReview: 0, currentReviewTaskId: null, reviewStartedAt: null, lastTriggeredBy: null };
}
async function readMurmurState(paths, teamId, warn) {
  const file = paths.murmurFile(teamId);
  let data;
  try {
    data = JSON.parse(await readFile2(file, "utf8"));
  } catch (err) {
    if (!hasCode(err, "ENOENT"))
      warn(`${file} is unreadable (${err instanceof Error ? err.message : String(err)}); starting from a fresh state`);
    return newMurmurState();
  }
  return toMurmurState(data, (key) => warn(`${file}: field ${key} has the wrong type; using its fresh value`));
}
async function writeMurmurState(paths, teamId, state) {
  await ensureDir(paths.murmur);
  const ordered = {
    lastReviewAt: state.lastReviewAt,
    completionsSinceLastReview: state.completionsSinceLastReview,
    failuresSinceLastReview: state.failuresSinceLastReview,
    currentReviewTaskId: state.currentReviewTaskId,
    reviewStartedAt: state.reviewStartedAt,
    lastTriggeredBy: state.lastTriggeredBy
  };
  await writeDurable(paths.murmurFile(teamId), `${JSON.stringify(ordered, null, 2)}
`);
}
var KINDS = ["queueEmpty", "completionBatch", "interval", "failureBatch"];
function toMurmurState(data, bad) {
  const fresh = newMurmurState();
  const record = data !== null && typeof data === "object" && !Array.isArray(data) ? data : {};
  const pick = (key, ok) => {
    const value = record[key];
    if (value === void 0 || value === null)
      return fresh[key];
    if (ok(value))
      return value;
    bad(key);
    return fresh[key];
  };
  const isIso = (v) => typeof v === "string" && !Number.isNaN(Date.parse(v));
  const isCount = (v) => typeof v === "number" && Number.isInteger(v) && v >= 0;
  return {
    lastReviewAt: pick("lastReviewAt", isIso),
    completionsSinceLastReview: pick("completionsSinceLastReview", isCount),
    failuresSinceLastReview: pick("failuresSinceLastReview", isCount),
    currentReviewTaskId: pick("currentReviewTaskId", (v) => typeof v === "string" && v.length > 0),
    reviewStartedAt: pick("reviewStartedAt", isIso),
    lastTriggeredBy: pick("lastTriggeredBy", (v) => typeof v === "string" && KINDS.includes(v))
  };
}

// dist/engine/team-tasks.js
function membershipOf(org) {
  const out = /* @__PURE__ */ new Map();
  const add = (agent, team) => out.set(agent, (out.get(agent) ?? /* @__PURE__ */ new Set()).add(team));
  for (const team of org.teams)
    for (const member of team.members)
      add(member, team.id);
  for (const agent of org.agents)
    if (agent.team)
      add(agent.id, agent.team);
  return out;
}
function teamsOfTask(routing, agent, membership) {
  const teams = new Set(agent ? membership.get(agent) : void 0);
  if (routing.team)
    teams.add(routing.team);
  return [...teams];
}

// dist/engine/murmur-counts.js
function createMurmurCounts(index) {
  const counts = /* @__PURE__ */ new Map();
  const running = /* @__PURE__ */ new Map();
  for (const entry of index.summaries("in-progress"))
    running.set(entry.id, { agent: entry.lease?.agent, failures: entry.dispatchFailures });
  const add = (entry, agent, what, membership) => {
    if (isReviewTitle(entry.title))
      return;
    for (const team of teamsOfTask(entry.routing, agent ?? entry.agent, membership)) {
      const count = counts.get(team) ?? { completions: 0, failures: 0 };
      count[what]++;
      counts.set(team, count);
    }
  };
  return {
    observe(change, membership) {
      const entry = index.get(change.id);
      const seen = running.get(change.id);
      if (change.from === "in-progress")
        running.delete(change.id);
      if (!entry)
        return;
      if (change.to === "in-progress")
        running.set(entry.id, { agent: entry.lease?.agent, failures: entry.dispatchFailures });
      if (!membership)
        return;
      if (change.to === "done" && change.from !== void 0)
        add(entry, seen?.agent, "completions", membership);
      if (change.to === "deadletter")
        add(entry, seen?.agent, "failures", membership);
      if (change.from === "in-progress" && change.to === "ready" && seen && entry.dispatchFailures > seen.failures)
        add(entry, seen.agent, "failures", membership);
    },
    take(teamId) {
      const count = counts.get(teamId) ?? { completions: 0, failures: 0 };
      counts.delete(teamId);
      return count;
    }
  };
}

// dist/engine/murmur-runner.js
var MURMUR_PREFIX = "[AOF] Murmur:";
function startMurmur(options) {
  const { store, index } = options;
  const paths = store.paths;
  const states = /* @__PURE__ */ new Map();
  const written = /* @__PURE__ */ new Map();
  const counts = createMurmurCounts(index);
  const heldLogged = /* @__PURE__ */ new Set();
  let membership = null;
  let indexLoaded = false;
  let closed = false;
  void index.loaded.then(() => indexLoaded = true, () => void 0);
  const log = (line) => options.log(`${MURMUR_PREFIX} ${line}`);
  async function evaluateTeam(team, org) {
    const before = states.get(team.id) ?? await readMurmurState(paths, team.id, log);
    let state = withCounts(before, counts.take(team.id));
    if (state.reviewStartedAt && !state.currentReviewTaskId)
      state = recoverCreation(team, state);
    states.set(team.id, state);
    const now = store.clock();
    const decision = evaluateMurmur(state, viewOf(team, org, state), now);
    state = await execute(team, state, decision, now);
    states.set(team.id, state);
    await save(team.id, state);
  }
  async function save(teamId, state) {
    const text = JSON.stringify(state);
    if (written.get(teamId) === text)
      return;
    await writeMurmurState(paths, teamId, state);
    written.set(teamId, text);
  }
  function viewOf(team, org, state) {
    const mine = (entry) => !isReviewTitle(entry.title) && teamsOfTask(entry.routing, entry.agent, membership).includes(team.id);
    return {
      murmur: team.murmur,
      ready: countWhere(index.summaries("ready"), mine),
      inProgress: countWhere(index.summaries("in-progress"), mine),
      running: index.counts()["in-progress"],
      maxConcurrentDispatches: toDaemonSettings(org).maxConcurrentDispatches,
      reviewStatus: state.currentReviewTaskId ? index.get(state.currentReviewTaskId)?.status : void 0,
      indexLoaded
    };
  }
  async function execute(team, state, decision, now) {
    if (decision.kind !== "held")
      heldLogged.delete(team.id);
    if (decision.kind === "idle" || decision.kind === "reviewing")
      return state;
    if (decision.kind === "held") {
      if (!heldLogged.has(team.id))
        log(`review of team ${team.id} (${decision.trigger}: ${decision.reason}) waits: ${decision.running} tasks in progress, the global concurrency limit`);
      heldLogged.add(team.id);
      return state;
    }
    if (decision.kind === "review")
      return createReview(team, state, decision, now);
    const next = applyDecision(state, decision, now);
    const taskId = decision.taskId;
    if (decision.kind === "completed")
      log(`review ${taskId} of team ${team.id} completed; counters reset`);
    else if (decision.kind === "ended")
      log(`review ${taskId} of team ${team.id} ${decision.why === "cancelled" ? "was cancelled" : "no longer exists"}; the team can be reviewed again`);
    else
      log(`warning: stale review ${taskId} of team ${team.id}: started ${state.reviewStartedAt}, older than reviewTimeoutMs (${team.murmur.reviewTimeoutMs} ms); cleared from the team's state, the task itself is left as it is (move it to blocked or done by hand)`);
    const action = decision.kind === "stale" ? "timedOut" : decision.kind === "completed" ? "completed" : decision.why;
    await event(taskId, { team: team.id, action, trigger: state.lastTriggeredBy, ...decision.kind === "stale" ? { ageMs: decision.ageMs } : {} }, now);
    return next;
  }
  async function createReview(team, state, decision, now) {
    const pending = applyDecision(state, decision, now);
    await save(team.id, pending);
    const input = await buildReview({ paths, team, trigger: decision.trigger, reason: decision.reason, state, summary: () => summaryOf(team) });
    const created = await store.create(input);
    const id = created.task.id;
    const next = applyDecision(state, decision, now, id);
    states.set(team.id, next);
    await save(team.id, next);
    log(`created review ${id} for team ${team.id}, routed to ${team.orchestrator} (trigger ${decision.trigger}: ${decision.reason})`);
    await event(id, { team: team.id, action: "created", trigger: decision.trigger, reason: decision.reason, agent: team.orchestrator }, now);
    await options.onCreated?.(id);
    return next;
  }
  function recoverCreation(team, state) {
    const since = Date.parse(state.reviewStartedAt);
    for (const status2 of ["ready", "in-progress", "blocked", "backlog"]) {
      for (const entry of index.summaries(status2)) {
        if (isReviewTitle(entry.title, team.id) && entry.routing.agent === team.orchestrator && Date.parse(entry.createdAt) >= since) {
          log(`review ${entry.id} of team ${team.id} was created before a restart; it is the current review`);
          return { ...state, currentReviewTaskId: entry.id };
        }
      }
    }
    return { ...state, reviewStartedAt: null };
  }
  function summaryOf(team) {
    const state = states.get(team.id);
    const since = state?.lastReviewAt ? Date.parse(state.lastReviewAt) : -Infinity;
    const mine = (entry) => !isReviewTitle(entry.title) && teamsOfTask(entry.routing, entry.agent, membership).includes(team.id);
    const pick = (entries, keep) => [...entries].filter((e) => mine(e) && keep(e));
    const completed = pick(index.summaries("done"), (e) => Date.parse(e.updatedAt) >= since).sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
    const failing = [...pick(index.summaries("deadletter"), () => true), ...pick(index.summaries("ready"), (e) => e.dispatchFailures > 0)];
    return {
      completed: completed.map(toSummaryTask),
      failing: failing.map(toSummaryTask),
      open: { ready: pick(index.summaries("ready"), () => true).length, inProgress: pick(index.summaries("in-progress"), () => true).length, blocked: pick(index.summaries("blocked"), () => true).length }
    };
  }
  async function event(taskId, payload, now) {
    await appendEvents(paths.root, now, [{ type: "murmur.review", taskId, actor: "scheduler", payload }]);
  }
  let current = null;
  let again = false;
  async function evaluateAll() {
    const org = await options.loadOrg();
    if (!org)
      return;
    membership = membershipOf(org);
    for (const team of org.teams) {
      if (!team.murmur || !team.orchestrator)
        continue;
      try {
        await evaluateTeam(team, org);
      } catch (err) {
        log(`evaluation of team ${team.id} failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }
  return {
    observe: (change) => counts.observe(change, membership),
    run() {
      if (closed)
        return Promise.resolve();
      if (current) {
        again = true;
        return current;
      }
      current = (async () => {
        do {
          again = false;
          await evaluateAll().catch((err) => log(`evaluation failed: ${err instanceof Error ? err.message : String(err)}`));
        } while (again && !closed);
      })().finally(() => current = null);
      return current;
    },
    async close() {
      closed = true;
      await current;
    }
  };
}
function withCounts(state, counts) {
  return { ...state, completionsSinceLastReview: state.completionsSinceLastReview + counts.completions, failuresSinceLastReview: state.failuresSinceLastReview + counts.failures };
}
function countWhere(items, keep) {
  let n = 0;
  for (const item of items)
    if (keep(item))
      n++;
  return n;
}
function toSummaryTask(entry) {
  return { id: entry.id, title: entry.title, status: entry.status, dispatchFailures: entry.dispatchFailures };
}

// dist/engine/sla-runner.js
import { readFile as readFile3 } from "node:fs/promises";

// dist/engine/sla.js
var DEFAULT_MAX_IN_PROGRESS_MS = 60 * 60 * 1e3;
var DEFAULT_RATE_LIMIT_MINUTES = 15;
var RESEARCH = "research";
function resolveSlaLimit(task, org) {
  if (task.maxInProgressMs !== void 0)
    return { limitMs: task.maxInProgressMs, source: "task" };
  const sla = projectSlaOf(org, task.project);
  if (sla?.researchMaxInProgressMs !== void 0 && isResearcher(task.routing.agent, org))
    return { limitMs: sla.researchMaxInProgressMs, source: "project research" };
  if (sla?.defaultMaxInProgressMs !== void 0)
    return { limitMs: sla.defaultMaxInProgressMs, source: "project" };
  return { limitMs: DEFAULT_MAX_IN_PROGRESS_MS, source: "default" };
}
function checkSla(task, org, now) {
  const { limitMs, source } = resolveSlaLimit(task, org);
  const durationMs = now.getTime() - Date.parse(task.updatedAt);
  if (!(durationMs > limitMs))
    return null;
  return { task, durationMs, limitMs, source, agent: task.agent ?? task.routing.agent ?? "unassigned" };
}
function toRateLimitMs(org, project) {
  return (projectSlaOf(org, project)?.alerting.rateLimitMinutes ?? DEFAULT_RATE_LIMIT_MINUTES) * 6e4;
}
function isResearcher(agentId, org) {
  if (!agentId || !org)
    return false;
  if (org.agents.some((agent) => agent.id === agentId && agent.capabilities.includes(RESEARCH)))
    return true;
  return [org.roles[RESEARCH], org.roles.researcher].some((role) => role?.agents.includes(agentId));
}
function formatSlaAlert(v) {
  const hours = (ms) => `${(ms / 36e5).toFixed(2)} h`;
  return [
    `[AOF] SLA VIOLATION: ${v.task.id} "${v.task.title}"`,
    `[AOF] SLA VIOLATION:   in progress for ${hours(v.durationMs)} (limit ${hours(v.limitMs)}, ${v.source}), agent: ${v.agent}`,
    `[AOF] SLA VIOLATION:   action: check on ${v.agent} (\`svc task show ${v.task.id}\`); if it is stuck, \`svc task status ${v.task.id} ready\` or \`svc task block ${v.task.id} --reason ...\` (alerts never move the task)`
  ].join("\n");
}
function projectSlaOf(org, project) {
  return org?.aof.projects[project]?.sla;
}

// dist/engine/sla-runner.js
function startSla(options) {
  const { store, index } = options;
  const details = /* @__PURE__ */ new Map();
  let alerted = null;
  let running = null;
  async function check() {
    const org = await options.loadOrg();
    const now = store.clock();
    alerted ??= await readAlerted(store.paths.slaAlerts, options.log);
    const inProgress = [...index.summaries("in-progress")];
    const due = [];
    let changed = false;
    for (const entry of inProgress) {
      const task = await toSlaTask(entry);
      const violation = task && checkSla(task, org, now);
      if (!violation)
        continue;
      const last = alerted.get(entry.id);
      if (last !== void 0 && now.getTime() - last < toRateLimitMs(org, task.project))
        continue;
      alerted.set(entry.id, now.getTime());
      due.push(violation);
      changed = true;
    }
    const live = new Set(inProgress.map((entry) => entry.id));
    for (const id of [...alerted.keys()])
      if (!live.has(id))
        changed = alerted.delete(id) || changed;
    for (const id of [...details.keys()])
      if (!live.has(id))
        details.delete(id);
    if (changed)
      await writeDurable(store.paths.slaAlerts, `${JSON.stringify(Object.fromEntries([...alerted].map(([id, ms]) => [id, new Date(ms).toISOString()])), null, 2)}
`);
    for (const v of due) {
      await appendEvents(store.paths.root, now, [{
        type: "sla.violation",
        taskId: v.task.id,
        actor: "scheduler",
        payload: { duration: v.durationMs, limit: v.limitMs, agent: v.agent, timestamp: now.getTime() }
      }]);
      options.alert(formatSlaAlert(v));
    }
    return due;
  }
  async function toSlaTask(entry) {
    let known = details.get(entry.id);
    if (known?.stamp !== entry.stamp) {
      try {
        const { task } = await readTaskFile(entry.path);
        known = { stamp: entry.stamp, project: task.project, maxInProgressMs: task.sla?.maxInProgressMs };
        details.set(entry.id, known);
      } catch {
        return null;
      }
    }
    return { id: entry.id, title: entry.title, project: known.project, updatedAt: entry.updatedAt, routing: entry.routing, agent: entry.agent, maxInProgressMs: known.maxInProgressMs };
  }
  return {
    check() {
      running ??= check().finally(() => running = null);
      return running;
    }
  };
}
async function readAlerted(file, log) {
  try {
    const data = JSON.parse(await readFile3(file, "utf8"));
    const out = /* @__PURE__ */ new Map();
    if (data && typeof data === "object" && !Array.isArray(data)) {
      for (const [id, at] of Object.entries(data))
        if (typeof at === "string" && !Number.isNaN(Date.parse(at)))
          out.set(id, Date.parse(at));
    }
    return out;
  } catch (err) {
    if (!hasCode(err, "ENOENT"))
      log(`warning: ${file} is unreadable (${err instanceof Error ? err.message : String(err)}); SLA alerts start a fresh rate window`);
    return /* @__PURE__ */ new Map();
  }
}

// dist/daemon/plugin-adapter.js
function createPluginAdapter(spawns) {
  const running = /* @__PURE__ */ new Map();
  return {
    kind: "plugin",
    /**
     * An agent-end or session-end event: the run of that session is over (idempotent with the result).
     * An event naming another spawn (a late event of an earlier run in the same session) ends nothing.
     */
    endSession(sessionKey, spawnId) {
      const id = running.get(sessionKey.toLowerCase());
      if (!id || spawnId !== void 0 && spawnId !== id)
        return false;
      return spawns.settle(id, { ok: true, sessionKey }) === "settled";
    },
    spawn(request2) {
      const key = toSessionKey(request2.agent, request2.taskId).toLowerCase();
      running.set(key, request2.id);
      return new Promise((resolve2, reject) => {
        let taken = false;
        const result = spawns.enqueue(request2, {
          onTaken: () => {
            taken = true;
            queueMicrotask(() => resolve2({ ended: result.then((r) => ({ ok: r.ok, ...r.reason ? { reason: r.reason } : {}, ...r.error ? { error: r.error } : {} })) }));
          }
        });
        void result.then((r) => {
          if (running.get(key) === request2.id)
            running.delete(key);
          if (!taken)
            reject(new SpawnError(r.reason ?? "spawn_failed", r.error ?? `spawn ${request2.id} ended before a plugin took it`));
        });
      });
    }
  };
}

// dist/daemon/scheduling.js
async function startScheduling(options) {
  const { store, index, spawns } = options;
  const org = createOrgState(store.paths.root, store.paths.orgChart, store.clock, options.log);
  const settings = toDaemonSettings(await org.get());
  const boot = createBoot(settings.bootWindowMs, settings.pollIntervalMs, () => spawns.attached().length > 0, options.log);
  const command = createCommandAdapter({
    root: store.paths.root,
    socketPath: store.paths.socket,
    loadOrg: org.get,
    baseEnv: options.env,
    logFile: `${store.paths.logs}/agents.log`,
    extraEnv: { SVC_BIN: `${findPackageRoot()}/bin/svc.js`, SVC_NODE: process.execPath }
  });
  const token = () => options.env.SVC_GATEWAY_TOKEN ?? readEnvFile(store.paths.envFile).SVC_GATEWAY_TOKEN;
  const standalone = createStandaloneAdapter({ gatewayUrl: () => org.settings().gatewayUrl, token, timeoutMs: settings.spawnTimeoutMs });
  const roleOf = createGateRoleResolver(store.paths.root, options.log);
  const source = { snapshot: () => toSnapshot(index, roleOf) };
  const plugin = createPluginAdapter(spawns);
  const scheduler = startScheduler({
    store,
    source,
    adapters: { command, standalone, plugin },
    loadOrg: org.get,
    mode: boot.mode,
    pluginAttached: () => spawns.attached().length > 0,
    log: options.log,
    alert: options.alert,
    onCommitted: (ids) => index.update(ids),
    dryRun: () => org.settings().dryRun,
    orgProblem: org.problem,
    ...options.trace ? { trace: options.trace } : {}
  });
  await requeueUnhanded(store, options.log);
  const murmur = startMurmur({ store, index, loadOrg: org.get, log: options.log, onCreated: async (id) => (await index.update([id]), scheduler.schedule()) });
  const sla = startSla({ store, index, loadOrg: org.get, log: options.log, alert: options.alert });
  const schedule = () => {
    scheduler.schedule();
    if (!org.settings().dryRun)
      void murmur.run();
  };
  let lastPollAt = null;
  const poll2 = setInterval(() => {
    lastPollAt = store.clock().toISOString();
    boot.polled();
    schedule();
    void sla.check().catch((err) => options.log(`SLA check failed: ${err instanceof Error ? err.message : String(err)}`));
  }, settings.pollIntervalMs);
  boot.onDecided(() => scheduler.schedule());
  schedule();
  return {
    mode: boot.mode,
    stats: () => ({ lastPollAt, lastTickAt: scheduler.stats().lastTickAt }),
    schedule,
    observe: murmur.observe,
    tick: async () => (await scheduler.tick()).actions,
    onPluginEvent(name, payload) {
      const key = payload.sessionKey;
      if (name !== "agent-end" && name !== "session-end" || typeof key !== "string")
        return null;
      return plugin.endSession(key, typeof payload.spawnId === "string" ? payload.spawnId : void 0) ? key : null;
    },
    dryRun: () => scheduler.preview(),
    config: org.report,
    async close() {
      clearInterval(poll2);
      boot.close();
      await murmur.close();
      await scheduler.close();
    }
  };
}
function requireScheduling(scheduling) {
  if (scheduling)
    return scheduling;
  throw new SvcError("unavailable", "This daemon runs without a scheduler.", "Start it with `svc daemon start`.");
}
function createBoot(windowMs, pollMs, attached, log) {
  let mode = "booting";
  let polls = 0;
  const listeners = [];
  const decide = () => {
    if (mode !== "booting")
      return;
    mode = attached() ? "plugin" : "standalone";
    log(`mode: ${mode} (${mode === "plugin" ? "a plugin attached during the boot window" : "no plugin attached during the boot window"})`);
    clearInterval(watch2);
    clearTimeout(timer);
    listeners.forEach((fn) => fn());
  };
  const timer = setTimeout(decide, Math.min(windowMs, 2 * pollMs));
  const watch2 = setInterval(() => attached() && decide(), 100);
  return {
    mode: () => mode,
    polled: () => ++polls >= 2 && decide(),
    onDecided: (fn) => listeners.push(fn),
    close() {
      clearTimeout(timer);
      clearInterval(watch2);
    }
  };
}
async function toSnapshot(index, roleOf) {
  const ready = await Promise.all([...index.summaries("ready")].map(async (entry) => toPlanTask(entry, await roleOf(entry))));
  const inProgress = [...index.summaries("in-progress")].map((entry) => toPlanTask(entry, void 0));
  return { ready, inProgress, statusOf: (id) => index.get(id)?.status };
}
function toPlanTask(entry, gateRole) {
  return {
    id: entry.id,
    status: entry.status,
    priority: entry.priority,
    createdAt: entry.createdAt,
    routing: entry.routing,
    dependsOn: entry.dependsOn,
    lease: entry.lease,
    gateRole,
    dispatchFailures: entry.dispatchFailures
  };
}
async function requeueUnhanded(store, log) {
  const markers = await readdir2(store.paths.spawns).catch(() => []);
  for (const name of markers) {
    const [taskId = "", sessionId = ""] = name.split("@");
    const result = await store.commit(taskId, (current) => {
      if (current.status !== "in-progress" || current.task.lease?.sessionId !== sessionId)
        return null;
      return { task: current.task, body: current.body, status: "ready", reason: "spawn never handed to an adapter (daemon restart)" };
    }, "scheduler").catch(() => null);
    if (result?.transitioned)
      log(`requeued ${taskId}: its spawn (session ${sessionId}) was never handed to an adapter`);
    await unlink2(`${store.paths.spawns}/${name}`).catch(() => void 0);
  }
}
function readEnvFile(file) {
  try {
    const out = {};
    for (const line of readFileSync4(file, "utf8").split("\n")) {
      const match = /^\s*([A-Z_][A-Z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
      if (match)
        out[match[1]] = match[2].replace(/^(['"])(.*)\1$/, "$2");
    }
    return out;
  } catch {
    return {};
  }
}

// dist/daemon/spawn-queue.js
function createSpawnQueue(options = {}) {
  const clock = options.clock ?? systemClock;
  const queued = [];
  const open = /* @__PURE__ */ new Map();
  const settled = /* @__PURE__ */ new Map();
  const waiters = [];
  const plugins = /* @__PURE__ */ new Map();
  const timers = /* @__PURE__ */ new Map();
  const takenHooks = /* @__PURE__ */ new Map();
  const graceMs = options.graceMs ?? 5e3;
  const pickupMs = options.pickupTimeoutMs ?? 3e4;
  function arm(spawn2) {
    const error = `No plugin took spawn ${spawn2.id} (task ${spawn2.taskId}) within ${pickupMs} ms.`;
    timers.set(spawn2.id, setTimeout(() => settle(spawn2.id, { ok: false, reason: "spawn_timeout", error }), pickupMs));
  }
  function settle(id, result) {
    if (settled.has(id))
      return "already";
    const resolve2 = open.get(id);
    if (!resolve2)
      return "unknown";
    open.delete(id);
    takenHooks.delete(id);
    clearTimeout(timers.get(id));
    timers.delete(id);
    const at = queued.findIndex((spawn2) => spawn2.id === id);
    if (at !== -1)
      queued.splice(at, 1);
    remember(settled, id, result);
    resolve2(result);
    return "settled";
  }
  function handOut() {
    while (queued.length && waiters.length) {
      const spawn2 = queued.shift();
      clearTimeout(timers.get(spawn2.id));
      timers.delete(spawn2.id);
      const waiter = waiters.shift();
      waiter.give(spawn2);
      const onTaken = takenHooks.get(spawn2.id);
      takenHooks.delete(spawn2.id);
      try {
        onTaken?.(waiter.pluginId);
      } catch (err) {
        options.onHookError?.(err, spawn2.id);
      }
    }
  }
  return {
    /** Queues a spawn; resolves with the plugin's result (or `spawn_timeout`, `daemon_stopped`). */
    enqueue(spawn2, hooks = {}) {
      if (open.has(spawn2.id) || settled.has(spawn2.id))
        return Promise.resolve({ ok: false, reason: "duplicate_spawn", error: `Spawn ${spawn2.id} was queued before.` });
      const result = new Promise((resolve2) => open.set(spawn2.id, resolve2));
      if (hooks.onTaken)
        takenHooks.set(spawn2.id, hooks.onTaken);
      queued.push(spawn2);
      arm(spawn2);
      handOut();
      return result;
    },
    /** A plugin's long-poll: the next spawn, or null after `holdMs` (or when `signal` aborts). */
    take(pluginId, holdMs, signal) {
      const plugin = attach(plugins, pluginId, clock(), graceMs);
      return new Promise((resolve2) => {
        const finish = (spawn2) => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          const at = waiters.indexOf(waiter);
          if (at !== -1)
            waiters.splice(at, 1);
          plugin.polls--;
          plugin.lastSeenMs = clock().getTime();
          resolve2(spawn2);
        };
        const waiter = { pluginId, give: finish };
        const onAbort = () => finish(null);
        const timer = setTimeout(() => finish(null), holdMs);
        signal?.addEventListener("abort", onAbort);
        waiters.push(waiter);
        handOut();
      });
    },
    /** Puts back a spawn whose long-poll connection died as it was handed out. */
    requeue(spawn2) {
      if (!open.has(spawn2.id))
        return;
      queued.unshift(spawn2);
      arm(spawn2);
      handOut();
    },
    /** Records a result; a repeated result for a settled spawn is `already` (idempotent). */
    settle,
    /** Plugins holding a long-poll now, or within the grace after their last one. */
    attached() {
      const now = clock().getTime();
      return [...plugins.values()].filter((p) => p.polls > 0 || now - p.lastSeenMs <= graceMs).map((p) => ({ id: p.id, since: p.since }));
    },
    /** Spawns waiting for a plugin. */
    size: () => queued.length,
    /** Releases every long-poll (null) and fails every open spawn with `daemon_stopped`. */
    close() {
      for (const waiter of [...waiters])
        waiter.give(null);
      for (const id of [...open.keys()])
        settle(id, { ok: false, reason: "daemon_stopped", error: "The svc daemon stopped before the spawn finished." });
    }
  };
}
var SETTLED_KEPT = 1e3;
function attach(plugins, id, now, graceMs) {
  let plugin = plugins.get(id);
  if (!plugin || plugin.polls === 0 && now.getTime() - plugin.lastSeenMs > graceMs) {
    plugin = { id, since: now.toISOString(), polls: 0, lastSeenMs: now.getTime() };
    plugins.set(id, plugin);
  }
  plugin.polls++;
  return plugin;
}
function remember(settled, id, result) {
  settled.set(id, result);
  if (settled.size > SETTLED_KEPT)
    settled.delete(settled.keys().next().value);
}

// dist/daemon/shutdown.js
function trackRequests(server) {
  let active = 0;
  let waiters = [];
  server.on("request", (_req, res) => {
    active++;
    res.once("close", () => {
      active--;
      if (active === 0)
        for (const wake of waiters.splice(0))
          wake();
    });
  });
  return {
    count: () => active,
    drained(timeoutMs) {
      if (active === 0)
        return Promise.resolve();
      return new Promise((resolve2) => {
        const timer = setTimeout(done, timeoutMs);
        function done() {
          clearTimeout(timer);
          waiters = waiters.filter((wake) => wake !== done);
          resolve2();
        }
        waiters.push(done);
      });
    }
  };
}
function closeServer(server, graceMs) {
  return new Promise((resolve2) => {
    if (!server.listening)
      return resolve2();
    const timer = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearTimeout(timer);
      resolve2();
    });
    server.closeIdleConnections();
  });
}
function trapSignals() {
  let requested = false;
  let stopper = null;
  const handler = () => {
    requested = true;
    stopper?.();
  };
  process.on("SIGTERM", handler);
  process.on("SIGINT", handler);
  return {
    onStop(stop) {
      stopper = stop;
      if (requested)
        stop();
    },
    remove() {
      process.off("SIGTERM", handler);
      process.off("SIGINT", handler);
    }
  };
}

// dist/daemon/health-port.js
import { createServer, request } from "node:http";
var HEALTH_HOST = "127.0.0.1";
async function startHealthPort(options) {
  const server = createServer((req, res) => {
    const path = (req.url ?? "").split("?")[0];
    if (req.method !== "GET" && req.method !== "HEAD" || path !== "/health") {
      return sendError(res, new SvcError("not_found", `${req.method} ${path} is not served on the health port: only GET /health is.`));
    }
    const problem = options.problem();
    sendJson(res, problem ? 503 : 200, problem ? { ok: false, reason: problem } : { ok: true });
  });
  await listen(server, options.port);
  const address = server.address();
  return {
    port: typeof address === "object" && address ? address.port : options.port,
    close: () => new Promise((done) => {
      server.close(() => done());
      server.closeAllConnections();
    })
  };
}
function checkHealthPort(port, timeoutMs = 5e3) {
  const url = `http://${HEALTH_HOST}:${port}/health`;
  return new Promise((resolve2) => {
    const req = request(url, { agent: false, timeout: timeoutMs }, (res) => {
      let text = "";
      res.on("data", (chunk) => void (text += chunk.toString()));
      res.on("error", (err) => resolve2({ healthy: false, status: res.statusCode ?? null, reason: `${url}: ${err.message}` }));
      res.on("end", () => {
        const status2 = res.statusCode ?? 0;
        if (status2 === 200)
          return resolve2({ healthy: true, status: status2 });
        resolve2({ healthy: false, status: status2, reason: `${url} answered HTTP ${status2}${toReason(text)}` });
      });
    });
    req.on("timeout", () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on("error", (err) => resolve2({ healthy: false, status: null, reason: `${url}: ${err.code ?? err.message}` }));
    req.end();
  });
}
function listen(server, port) {
  return new Promise((resolve2, reject) => {
    server.once("error", (err) => {
      if (!hasCode(err, "EADDRINUSE") && !hasCode(err, "EACCES"))
        return reject(err);
      reject(new SvcError("unavailable", `The health port ${HEALTH_HOST}:${port} cannot be opened (${err.code}).`, `Free the port or choose another with aof.daemon.healthPort in the org chart (or --port).`, { cause: err }));
    });
    server.listen({ port, host: HEALTH_HOST, exclusive: true }, () => resolve2());
  });
}
function toReason(text) {
  try {
    const body = JSON.parse(text);
    const reason = body.reason ?? body.error?.message;
    return typeof reason === "string" ? ` (${reason})` : "";
  } catch {
    return "";
  }
}

// dist/daemon/daemon.js
async function startDaemon(options) {
  const paths = toPaths(options.root);
  assertSocketPath(paths.socket);
  const clock = options.clock ?? systemClock;
  const signals = options.handleSignals ? trapSignals() : null;
  const store = createStore({ root: paths.root, clock });
  let parts = {};
  try {
    await store.init();
    assertPrivateDir(paths.data);
    parts = { lock: await holdInstanceLock(paths) };
    parts.log = createLog({ file: paths.daemonLog, stderr: options.stderr, now: clock });
    const removed = await clearLeftovers(paths);
    if (removed.length)
      parts.log.warn("daemon.leftovers_removed", { removed });
    const daemon = await launch(paths, store, options, clock, parts);
    signals?.onStop(() => void daemon.close());
    void daemon.closed.then(() => signals?.remove());
    return daemon;
  } catch (err) {
    signals?.remove();
    parts.log?.error("daemon.start_failed", { message: err instanceof Error ? err.message : String(err) });
    await parts.index?.close().catch(() => void 0);
    if (parts.server)
      await closeServer(parts.server, 0).catch(() => void 0);
    await parts.health?.close();
    await parts.log?.close();
    await parts.lock?.release();
    throw err;
  }
}
async function launch(paths, store, options, clock, parts) {
  const { log } = parts;
  let wake = () => void 0;
  let observe = (_change) => void 0;
  const healer = createHealer(store, (line) => log.info("repair", { message: line }), (id) => void parts.index?.update([id]));
  const repair = (id, why) => healer.repair(id, why);
  const settings = toDaemonSettings(await loadOrg(paths.root).catch((err) => {
    log.warn("org.invalid", { message: err instanceof Error ? err.message : String(err) });
    return null;
  }));
  parts.index = await createTaskIndex(paths, {
    rescanIntervalMs: options.rescanIntervalMs ?? settings.rescanIntervalMs,
    watch: options.watch,
    onInvalid: (file) => void recordInvalid(paths, clock, log, file),
    onError: (err) => log.error("index.error", { message: err instanceof Error ? err.message : String(err) }),
    onNeedsRepair: (id, why) => repair(id, why),
    onRescanFound: ({ count, full }) => log.info("index.rescan", { message: `rescan found ${count} new or changed task files`, count, full }),
    onChange: (change) => {
      observe(change);
      if (change.to === "ready" || change.from === "in-progress" || change.to === "done")
        wake();
    }
  });
  const spawns = createSpawnQueue({
    clock,
    pickupTimeoutMs: options.spawnTimeoutMs ?? settings.spawnTimeoutMs,
    graceMs: options.pluginGraceMs,
    onHookError: (err, id) => log.error("spawn.hook_failed", { id, message: err instanceof Error ? err.message : String(err) })
  });
  const core = {
    paths,
    store,
    options,
    clock,
    parts,
    spawns,
    listeners: /* @__PURE__ */ new Set(),
    pid: process.pid,
    version: options.version ?? readPackageVersion(),
    startedAt: clock().getTime(),
    stopping: false,
    loaded: false,
    scheduling: null,
    healer
  };
  const { index } = core.parts;
  void index.loaded.then(() => (core.loaded = true, log.info("index.loaded", { byStatus: index.counts() })), () => void 0);
  const server = parts.server = createServer2(createRoutes(toRouteContext(core)));
  const requests = trackRequests(server);
  await listenPrivate(server, paths.socket);
  await assertHealthy(paths);
  const healthPort = options.healthPort ?? settings.healthPort;
  if (healthPort !== void 0) {
    parts.health = await startHealthPort({ port: healthPort, problem: () => core.stopping ? "stopping" : null });
    log.info("health.listening", { url: `http://127.0.0.1:${parts.health.port}/health` });
  }
  await writePidFile(paths, core.pid);
  log.info("daemon.started", { pid: core.pid, version: core.version, socket: paths.socket, byStatus: index.counts() });
  await appendEvents(paths.root, clock(), [{ type: "daemon.started", actor: "system", payload: { pid: core.pid, version: core.version } }]);
  if (options.schedule !== false) {
    core.scheduling = await startScheduling({
      store,
      index,
      spawns,
      env: options.env ?? {},
      log: (line) => log.info("scheduler", { message: line }),
      trace: log.debug("scheduler"),
      alert: (text) => (options.stderr ?? ((t) => process.stderr.write(t)))(`${text}
`)
    });
    wake = core.scheduling.schedule;
    observe = core.scheduling.observe;
  }
  const { close, closed } = createStop(core, server, requests);
  return {
    paths,
    pid: core.pid,
    store,
    index,
    spawns,
    log,
    closed,
    close,
    onHook(listener) {
      core.listeners.add(listener);
      return () => core.listeners.delete(listener);
    }
  };
}
function toRouteContext(core) {
  const { paths, clock, spawns, parts } = core;
  const { index, log } = parts;
  return {
    tools: core.options.tools,
    spawns,
    log,
    spawnWaitMs: core.options.spawnWaitMs ?? 25e3,
    status: async () => ({ ...statusOf(core), ...core.scheduling ? { config: await core.scheduling.config() } : {} }),
    isStopping: () => core.stopping,
    toolContext: {
      store: core.store,
      index,
      onCommitted: async (ids) => {
        await index.update(ids);
        core.scheduling?.schedule();
      }
    },
    listTasks: async (status2) => {
      if (!status2 || status2 === "done" || status2 === "cancelled")
        await index.loaded;
      await index.refresh();
      const rows = [...index.summaries(status2)].map(({ id, title, status: at, priority, agent, createdAt, updatedAt, dependsOn }) => ({ id, title, status: at, priority, agent, createdAt, updatedAt, dependsOn }));
      return { tasks: rows, invalid: index.invalid() };
    },
    scheduler: {
      tick: () => requireScheduling(core.scheduling).tick(),
      dryRun: () => requireScheduling(core.scheduling).dryRun()
    },
    beforeTool: () => index.refresh(),
    onHook: async (name, payload, plugin) => {
      const ended = core.scheduling?.onPluginEvent(name, payload);
      if (ended)
        log.info("spawn.ended", { sessionKey: ended, by: name });
      log.info(`event.${name}`, { plugin });
      await appendEvents(paths.root, clock(), [{ type: `plugin.${name}`, actor: plugin ?? "plugin", payload }]);
      for (const listener of core.listeners)
        listener(name, payload, plugin);
    }
  };
}
function statusOf(core) {
  const { index } = core.parts;
  return {
    status: core.stopping ? "stopping" : "running",
    healthy: !core.stopping,
    version: core.version,
    pid: core.pid,
    uptimeMs: core.clock().getTime() - core.startedAt,
    mode: core.scheduling?.mode() ?? "standalone",
    plugins: core.spawns.attached(),
    tasks: { byStatus: index.counts(), invalid: index.invalid().length, loaded: core.loaded },
    scheduler: core.scheduling?.stats() ?? { lastPollAt: null, lastTickAt: null }
  };
}
function createStop(core, server, requests) {
  const { paths, clock, pid, parts } = core;
  let stopped = null;
  let markClosed;
  const closed = new Promise((done) => markClosed = done);
  const close = () => stopped ??= (async () => {
    core.stopping = true;
    parts.log.info("daemon.stopping", { pid, inFlight: requests.count() });
    await core.scheduling?.close();
    await core.healer.close();
    core.spawns.close();
    await requests.drained(core.options.drainTimeoutMs ?? 1e4);
    await closeServer(server, 1e3);
    await parts.health?.close();
    await parts.index.close();
    await removePidFile(paths, pid);
    parts.log.info("daemon.stopped", { pid, uptimeMs: clock().getTime() - core.startedAt });
    await appendEvents(paths.root, clock(), [{ type: "daemon.stopped", actor: "system", payload: { pid } }]).catch(() => void 0);
    await parts.log.close();
    await parts.lock.release();
    markClosed();
  })();
  return { close, closed };
}

// dist/daemon/service.js
import { execFile } from "node:child_process";
import { readFileSync as readFileSync5 } from "node:fs";
import { mkdir, readFile as readFile4, unlink as unlink3, writeFile } from "node:fs/promises";
import { platform as platform2, userInfo } from "node:os";
import { dirname as dirname3, join as join3 } from "node:path";
var DAEMON_NODE_FLAGS = ["--max-old-space-size=1024"];
var SERVICE_LABEL = "svc.daemon";
var SYSTEMD_UNIT = "svc.service";
var WATCHDOG_LABEL = "svc.watchdog";
var WATCHDOG_UNIT = "svc-watchdog.service";
function renderServiceFile(options, unit = "daemon") {
  const kind = (options.platform ?? platform2()) === "darwin" ? "launchd" : "systemd";
  const paths = toPaths(options.svcHome);
  const label = unit === "daemon" ? SERVICE_LABEL : WATCHDOG_LABEL;
  const name = kind === "launchd" ? label : unit === "daemon" ? SYSTEMD_UNIT : WATCHDOG_UNIT;
  const values = { NODE: options.node, NODE_FLAG: DAEMON_NODE_FLAGS.join(" "), BIN: options.bin, SVC_HOME: paths.root, ENV_FILE: paths.envFile, LOG: unit === "daemon" ? paths.daemonLog : paths.watchdogLog, LABEL: label, DAEMON_UNIT: SYSTEMD_UNIT };
  const escape = kind === "launchd" ? escapeXml : escapeSystemd;
  const base = unit === "daemon" ? "svc" : "svc-watchdog";
  const template = readFileSync5(templatePath(kind === "launchd" ? `${base}.plist` : `${base}.service`), "utf8");
  const content = template.replace(/\{\{(\w+)\}\}/g, (_, key) => escape(values[key] ?? ""));
  const file = kind === "launchd" ? join3(options.home, "Library", "LaunchAgents", `${label}.plist`) : join3(options.home, ".config", "systemd", "user", name);
  return { kind, name, file, content };
}
async function installService(options) {
  const service = renderServiceFile(options);
  const changed = await writeIfChanged(service);
  const why = await supervisorProblem(service.kind, options);
  if (!why)
    await supervise(service, options, changed ? "reload" : "start");
  const watchdog = options.watchdog ? await installWatchdog(options, why) : await removeUnit(renderServiceFile(options, "watchdog"), options, why);
  return { file: service.file, kind: service.kind, changed, supervised: !why, ...why ? { why } : {}, ...watchdog ? { watchdog } : {} };
}
async function uninstallService(options) {
  const service = renderServiceFile(options);
  const why = await supervisorProblem(service.kind, options);
  const watchdog = await removeUnit(renderServiceFile(options, "watchdog"), options, why);
  if (!why)
    await supervise(service, options, "remove");
  const changed = await unlinkIfPresent(service.file);
  if (!why && service.kind === "systemd")
    await runner(options)("systemctl", ["--user", "daemon-reload"]);
  return { file: service.file, kind: service.kind, changed, supervised: !why, ...why ? { why } : {}, ...watchdog ? { watchdog } : {} };
}
async function controlService(options, action) {
  const service = renderServiceFile(options);
  if (await readFile4(service.file, "utf8").catch(() => null) === null)
    return false;
  if (await supervisorProblem(service.kind, options))
    return false;
  await supervise(service, options, action);
  return true;
}
async function supervisorProblem(kind, options) {
  if (options.home !== userInfo().homedir)
    return `${options.home} is not the home of this user, so the supervisor would not see the file`;
  const probe = kind === "launchd" ? ["launchctl", ["print", `gui/${userInfo().uid}`]] : ["systemctl", ["--user", "show-environment"]];
  const result = await runner(options)(probe[0], [...probe[1]]);
  if (result.code === 0)
    return null;
  const detail = (result.stderr || result.stdout).trim().split("\n")[0] || `exit code ${result.code}`;
  return `${kind === "launchd" ? "launchctl" : "systemctl --user"} is not available here (${detail})`;
}
async function supervise(service, options, action) {
  const run = runner(options);
  const steps = service.kind === "launchd" ? launchdSteps(service, action) : systemdSteps(service.name, action);
  for (const [command, args, mayFail] of steps) {
    const result = await run(command, args);
    if (result.code !== 0 && !mayFail)
      throw new Error(`${command} ${args.join(" ")} failed (exit ${result.code}): ${(result.stderr || result.stdout).trim()}`);
  }
}
function systemdSteps(unit, action) {
  const ctl = (...args) => ["systemctl", ["--user", ...args], false];
  if (action === "reload")
    return [ctl("daemon-reload"), ctl("enable", unit), ctl("restart", unit)];
  if (action === "start")
    return [ctl("enable", unit), ctl("start", unit)];
  if (action === "stop")
    return [ctl("stop", unit)];
  return [ctl("disable", "--now", unit)];
}
function launchdSteps(service, action) {
  const target = `gui/${userInfo().uid}`;
  const bootout = ["launchctl", ["bootout", `${target}/${service.name}`], true];
  const bootstrap = ["launchctl", ["bootstrap", target, service.file], true];
  const kickstart = ["launchctl", ["kickstart", `${target}/${service.name}`], false];
  if (action === "reload")
    return [bootout, bootstrap, kickstart];
  if (action === "start")
    return [bootstrap, kickstart];
  if (action === "stop")
    return [["launchctl", ["kill", "SIGTERM", `${target}/${service.name}`], false]];
  return [bootout];
}
async function installWatchdog(options, why) {
  const unit = renderServiceFile(options, "watchdog");
  const changed = await writeIfChanged(unit);
  if (!why)
    await supervise(unit, options, changed ? "reload" : "start");
  return { file: unit.file, changed, installed: true };
}
async function removeUnit(unit, options, why) {
  if (await readFile4(unit.file, "utf8").catch(() => null) === null)
    return void 0;
  if (!why)
    await supervise(unit, options, "remove");
  return { file: unit.file, changed: await unlinkIfPresent(unit.file), installed: false };
}
async function writeIfChanged(service) {
  const before = await readFile4(service.file, "utf8").catch(() => null);
  if (before === service.content)
    return false;
  await mkdir(dirname3(service.file), { recursive: true });
  await writeFile(service.file, service.content, { mode: 420 });
  return true;
}
function unlinkIfPresent(file) {
  return unlink3(file).then(() => true, (err) => hasCode(err, "ENOENT") ? false : Promise.reject(err));
}
function runner(options) {
  return options.run ?? runCommand;
}
function runCommand(command, args) {
  return new Promise((resolve2) => {
    execFile(command, args, { timeout: 15e3 }, (err, stdout, stderr) => {
      const code = err ? typeof err.code === "number" ? err.code : 127 : 0;
      resolve2({ code, stdout: String(stdout), stderr: String(stderr || (err && !stdout ? err.message : "")) });
    });
  });
}
function escapeXml(value) {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}
function escapeSystemd(value) {
  return value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/%/g, "%%");
}

// dist/daemon/watchdog-check.js
import { existsSync as existsSync2, readFileSync as readFileSync6 } from "node:fs";
async function checkDaemon(paths, options = {}) {
  const timeoutMs = options.timeoutMs ?? 5e3;
  const probe = await probeDaemon(paths, timeoutMs).catch((err) => ({ state: "unhealthy", healthy: false, reason: err instanceof Error ? err.message : String(err), status: void 0 }));
  const status2 = probe.status;
  const answer = options.port === void 0 ? null : await checkHealthPort(options.port, timeoutMs);
  if (answer ? answer.healthy : probe.healthy)
    return { state: "healthy", status: status2 };
  if (answer ? answer.status === 503 : probe.state === "stopping")
    return { state: "transient", reason: answer?.reason ?? "the daemon answers 503 (stopping)", status: status2 };
  if (isStopped(paths))
    return { state: "stopped", reason: "no pid file and no socket" };
  const pid = readPid(paths);
  if (pid !== null && isAlive(pid) && !existsSync2(paths.socket))
    return { state: "transient", reason: `pid ${pid} is alive without its socket (starting or stopping)` };
  if (!answer && probe.status && pid === null)
    return { state: "transient", reason: `the socket answers but ${paths.pidFile} is not written yet (starting)`, status: status2 };
  const dead = pid !== null && isZombie(pid) ? `pid ${pid} has exited (not reaped yet)` : void 0;
  return { state: "failed", reason: answer?.reason ?? dead ?? probe.reason ?? describeDead(paths), status: status2 };
}
function isZombie(pid) {
  try {
    return /^\d+ \(.*\) Z/s.test(readFileSync6(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}
function isStopped(paths) {
  return !existsSync2(paths.pidFile) && !existsSync2(paths.socket);
}
function describeDead(paths) {
  const pid = readPid(paths);
  if (pid !== null && !isAlive(pid))
    return `pid ${pid} in ${paths.pidFile} is not alive`;
  if (existsSync2(paths.socket))
    return `nothing answers on ${paths.socket}`;
  return `no daemon answers on ${paths.socket}`;
}

// dist/daemon/watchdog-report.js
import { closeSync as closeSync2, openSync as openSync2, readdirSync, readSync, fstatSync } from "node:fs";
function formatCriticalReport(input) {
  const { paths, current, lastHealthy } = input;
  const restarts = input.history.filter((r) => r.outcome !== "not restarted: limit reached").length;
  const counts = countTasks(paths);
  const last = readLastEvent(paths);
  const seen = lastHealthy?.status;
  return [
    `[AOF] WATCHDOG CRITICAL: the svc daemon of ${paths.root} keeps failing; the watchdog stopped restarting it.`,
    `Summary: ${restarts} restart(s) within ${formatMs(input.windowMs)} reached restartPolicy.maxRestarts = ${input.maxRestarts}; the daemon failed again: ${current.reason ?? current.state}.`,
    "Restart history:",
    ...input.history.map((r) => `  ${r.at}  ${r.reason} -> ${r.outcome}`),
    "Current health:",
    `  Status: ${current.state === "healthy" ? "healthy" : `${STATE_WORDS[current.state]} (${current.reason ?? "no reason given"})`}`,
    `  Uptime: ${current.status ? formatMs(current.status.uptimeMs) : `none${lastHealthy ? ` (last healthy at ${lastHealthy.at}${seen ? `, up ${formatMs(seen.uptimeMs)}` : ""})` : " (never seen healthy by this watchdog)"}`}`,
    `  Last poll: watchdog ${input.lastPollAt}; scheduler ${(current.status ?? seen)?.scheduler.lastPollAt ?? "unknown"}`,
    `  Last event: ${last ? `${last.timestamp} ${last.type}${last.taskId ? ` ${last.taskId}` : ""}` : "none"}`,
    `Tasks: open ${counts.open}, ready ${counts.ready}, in progress ${counts.inProgress}, blocked ${counts.blocked}, done ${counts.done}`,
    `Action required: read ${paths.daemonLog} and ${paths.watchdogLog}, fix the cause, then start the daemon with \`svc daemon start\` and the watchdog again with \`svc daemon watchdog\`.`
  ];
}
function countTasks(paths) {
  const count = (status2) => {
    try {
      return readdirSync(paths.statusDir(status2)).filter((name) => toTaskId(name) !== null).length;
    } catch {
      return 0;
    }
  };
  return { open: count("backlog"), ready: count("ready"), inProgress: count("in-progress"), blocked: count("blocked"), done: count("done") };
}
function readLastEvent(paths) {
  let files;
  try {
    files = readdirSync(paths.events).filter((name) => /^\d{4}-\d{2}-\d{2}\.jsonl$/.test(name)).sort().reverse();
  } catch {
    return null;
  }
  for (const name of files) {
    const lines = readTail(`${paths.events}/${name}`, 64 * 1024).split("\n").reverse();
    for (const line of lines) {
      try {
        const event = JSON.parse(line);
        if (typeof event.timestamp === "string" && typeof event.type === "string")
          return { timestamp: event.timestamp, type: event.type, ...typeof event.taskId === "string" ? { taskId: event.taskId } : {} };
      } catch {
      }
    }
  }
  return null;
}
function formatMs(ms) {
  const total = Math.max(0, Math.floor(ms / 1e3));
  const [d, h, m, s] = [Math.floor(total / 86400), Math.floor(total / 3600) % 24, Math.floor(total / 60) % 60, total % 60];
  const text = [d ? `${d}d` : "", h ? `${h}h` : "", m ? `${m}m` : "", s ? `${s}s` : ""].filter(Boolean).join(" ");
  return text || `${ms} ms`;
}
var STATE_WORDS = { failed: "down", stopped: "stopped", transient: "starting or stopping" };
function readTail(file, bytes) {
  let fd;
  try {
    fd = openSync2(file, "r");
  } catch {
    return "";
  }
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, bytes);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    return buffer.toString("utf8");
  } finally {
    closeSync2(fd);
  }
}

// dist/daemon/watchdog.js
function startWatchdog(options) {
  const paths = toPaths(options.root);
  const clock = options.clock ?? systemClock;
  const log = createLog({ file: paths.watchdogLog, now: clock });
  const check = options.check ?? (() => checkDaemon(paths, { port: options.port, timeoutMs: options.checkTimeoutMs }));
  const state = { polls: 0, lastPollAt: null, previous: null, transientSince: null, lastHealthy: null, history: [], stopped: false, closing: false };
  const say = (text) => {
    log.alert(text);
    options.alert?.(`${text}
`);
  };
  let finish;
  const done = new Promise((resolve2) => finish = resolve2);
  let timer;
  let inFlight = Promise.resolve();
  const end = async (outcome) => {
    if (state.stopped)
      return;
    state.stopped = true;
    clearTimeout(timer);
    log.info("watchdog.stopped", { gaveUp: outcome.gaveUp });
    await log.close();
    finish(outcome);
  };
  const loop = () => {
    inFlight = poll({ options, paths, clock, log, say, check, state, end }).then(() => {
      if (!state.stopped && !state.closing)
        timer = setTimeout(loop, options.pollIntervalMs);
    });
  };
  log.info("watchdog.started", { via: options.port === void 0 ? paths.socket : `http://127.0.0.1:${options.port}/health`, pollIntervalMs: options.pollIntervalMs, maxRestarts: options.maxRestarts, windowMs: options.windowMs });
  timer = setTimeout(loop, 0);
  return {
    paths,
    done,
    stats: () => ({ polls: state.polls, lastPollAt: state.lastPollAt, history: state.history.map(({ at, reason, outcome }) => ({ at, reason, outcome })) }),
    async close() {
      state.closing = true;
      clearTimeout(timer);
      await inFlight;
      await end({ gaveUp: false, report: [] });
    }
  };
}
async function poll(ctx) {
  const { state, log } = ctx;
  const result = await ctx.check().catch((err) => ({ state: "failed", reason: err instanceof Error ? err.message : String(err) }));
  if (state.stopped || state.closing)
    return;
  const now = ctx.clock();
  state.polls++;
  state.lastPollAt = now.toISOString();
  const previous = state.previous;
  if (result.state !== "transient")
    state.transientSince = null;
  if (result.state === "healthy") {
    if (previous !== "healthy")
      log.info("watchdog.healthy", { after: previous ?? "start", pid: result.status?.pid });
    state.previous = "healthy";
    state.lastHealthy = { at: state.lastPollAt, status: result.status };
    return;
  }
  const grace = ctx.options.transientGraceMs ?? 3e4;
  state.transientSince ??= result.state === "transient" ? now.getTime() : null;
  if (result.state === "transient" && now.getTime() - state.transientSince <= grace)
    return void (state.previous = "transient");
  if (result.state === "stopped" && previous !== null && previous !== "failed") {
    if (previous !== "stopped")
      log.info("watchdog.daemon_stopped", { message: "the daemon was stopped gracefully; it is left stopped until it runs again" });
    state.previous = "stopped";
    return;
  }
  const reason = result.state === "transient" ? `still starting or stopping after ${formatMs(grace)} (${result.reason})` : result.state === "stopped" ? "not running" : result.reason ?? "unhealthy";
  state.transientSince = null;
  await onFailure(ctx, now, reason, result);
}
async function onFailure(ctx, now, reason, result) {
  const { options, state, log, say } = ctx;
  const time = now.getTime();
  const recent = state.history.filter((r) => time - r.time <= options.windowMs);
  state.history = recent;
  if (recent.length >= options.maxRestarts) {
    state.history.push({ at: now.toISOString(), time, reason, outcome: "not restarted: limit reached" });
    const report2 = formatCriticalReport({
      paths: ctx.paths,
      now,
      maxRestarts: options.maxRestarts,
      windowMs: options.windowMs,
      history: state.history,
      current: result,
      lastHealthy: state.lastHealthy,
      lastPollAt: state.lastPollAt ?? now.toISOString()
    });
    log.error("watchdog.critical", { reason, restarts: recent.length, windowMs: options.windowMs });
    say(report2.join("\n"));
    return ctx.end({ gaveUp: true, report: report2 });
  }
  say(`[AOF] Watchdog: the svc daemon is unhealthy (${reason}); restarting it (${recent.length + 1} of ${options.maxRestarts} within ${formatMs(options.windowMs)}).`);
  log.warn("watchdog.restarting", { reason, attempt: recent.length + 1 });
  let outcome;
  try {
    const restarted = await options.restart(reason);
    outcome = `restarted (pid ${restarted.pid ?? "?"}, ${restarted.how === "supervisor" ? "through the supervisor" : "directly"})`;
    state.previous = "restarted";
  } catch (err) {
    outcome = `restart failed: ${(err instanceof Error ? err.message : String(err)).split("\n")[0].replace(/\.$/, "")}`;
    state.previous = "failed";
  }
  state.history.push({ at: now.toISOString(), time, reason, outcome });
  log.info("watchdog.restart", { reason, outcome });
  say(`[AOF] Watchdog: ${outcome}.`);
}

// dist/daemon/watchdog-restart.js
import { readFileSync as readFileSync7 } from "node:fs";
import { platform as platform3 } from "node:os";
async function restartDaemon(options) {
  const { paths } = options;
  const supervised = await controlService(options.service, "stop");
  await stopStuck(paths, options.stopTimeoutMs ?? 1e4);
  let exited = () => null;
  let how = "supervisor";
  if (!supervised || !await controlService(options.service, "start")) {
    how = "direct";
    exited = spawnDetached({ ...options.command, logFile: paths.daemonLog }).exited;
  }
  const up = await waitForHealthy(paths, options.startTimeoutMs ?? 2e4, exited);
  return { how, pid: up.pid };
}
async function stopStuck(paths, timeoutMs) {
  const pid = readPid(paths);
  if (pid === null || !isAlive(pid))
    return;
  if (!isDaemonProcess(pid)) {
    if (isZombie(pid))
      await waitForExit(pid, timeoutMs);
    return;
  }
  terminate(pid);
  if (await waitForExit(pid, timeoutMs))
    return;
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    return;
  }
  await waitForExit(pid, 5e3);
}
function isDaemonProcess(pid) {
  if (platform3() !== "linux")
    return !isZombie(pid);
  try {
    return readFileSync7(`/proc/${pid}/cmdline`, "utf8").includes("daemon\0run");
  } catch {
    return false;
  }
}

// dist/cli/watchdog.js
async function runWatchdog(ctx, options) {
  const paths = toPaths(ctx.root);
  const settings = toDaemonSettings(await loadOrg(ctx.root));
  const flagPort = options.port === void 0 ? void 0 : toPort(options.port);
  const port = flagPort ?? settings.healthPort;
  const { pollIntervalMs, restartPolicy } = settings.watchdog;
  const watchdog = startWatchdog({
    root: paths.root,
    pollIntervalMs,
    maxRestarts: restartPolicy.maxRestarts,
    windowMs: restartPolicy.windowMs,
    port,
    alert: (text) => ctx.io.stderr(text),
    restart: () => restartDaemon({
      paths,
      service: options.service,
      // a port given on the command line is passed on, so a daemon started here opens it
      command: { node: process.execPath, args: [...DAEMON_NODE_FLAGS, options.bin, "daemon", "run", ...flagPort === void 0 ? [] : ["--port", String(flagPort)]], env: { ...ctx.io.env, SVC_HOME: paths.root } }
    })
  });
  const via = port === void 0 ? `${paths.socket} (/healthz)` : `http://127.0.0.1:${port}/health`;
  ctx.print(`svc watchdog (pid ${process.pid}) checks ${via} every ${formatMs(pollIntervalMs)}; at most ${restartPolicy.maxRestarts} restarts within ${formatMs(restartPolicy.windowMs)}; log: ${paths.watchdogLog}`);
  const stop = () => void watchdog.close();
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  try {
    const outcome = await watchdog.done;
    if (outcome.gaveUp)
      ctx.exitCode = 1;
  } finally {
    process.off("SIGTERM", stop);
    process.off("SIGINT", stop);
  }
}
function toPort(value) {
  const port = typeof value === "number" ? value : Number(String(value));
  if (Number.isInteger(port) && port >= 1 && port <= 65535)
    return port;
  throw new SvcError("validation_error", `--port must be a port number from 1 to 65535 (found ${JSON.stringify(value)}).`, "Pass the health port of the daemon, for example --port 18000 (see aof.daemon.healthPort).");
}

// dist/cli/daemon.js
var START_TIMEOUT_MS = 2e4;
var STOP_TIMEOUT_MS = 3e4;
function registerDaemon(cli, ctx) {
  cli.command("run", "Run the daemon in the foreground (what the service unit runs)").option("--port <n>", "Also serve GET /health on 127.0.0.1:<n> (else aof.daemon.healthPort)").action((opts) => runDaemon(ctx, opts.port === void 0 ? void 0 : toPort(opts.port)));
  cli.command("start", "Start the daemon (through the supervisor when installed, else detached)").action(() => startDaemonProcess(ctx));
  cli.command("status", "Show whether the daemon runs, its version, pid, uptime, mode, plugins and whether its org chart loaded").option("--json", "Print the /status body as JSON").option("--port <n>", "Also query GET /health on 127.0.0.1:<n> (the health port)").action((opts) => status(ctx, opts.json === true, opts.port === void 0 ? void 0 : toPort(opts.port)));
  cli.command("watchdog", "Watch the daemon's health and restart it when it fails (aof.daemon.watchdog)").option("--port <n>", "Check GET /health on 127.0.0.1:<n> instead of the socket").action((opts) => runWatchdog(ctx, { port: opts.port, service: serviceOptions(ctx), bin: binPath() }));
  cli.command("stop", "Stop the daemon gracefully (SIGTERM, through the supervisor when installed)").option("--force", "Bypass the supervisor: SIGTERM to the pid").action((opts) => stopDaemonProcess(ctx, opts.force === true));
  cli.command("install", "Write the user service (systemd or launchd), load and start it").action(() => install(ctx));
  cli.command("uninstall", "Stop the daemon and remove the user service").action(() => uninstall(ctx));
}
async function runDaemon(ctx, healthPort) {
  const daemon = await startDaemon({ root: ctx.root, tools: TOOLS, stderr: (text) => ctx.io.stderr(text), handleSignals: true, env: ctx.io.env, ...healthPort === void 0 ? {} : { healthPort } });
  ctx.print(`svc daemon running (pid ${daemon.pid}) on ${daemon.paths.socket}; log: ${daemon.paths.daemonLog}`);
  await daemon.closed;
}
async function startDaemonProcess(ctx) {
  const paths = toPaths(ctx.root);
  const probe = await probeDaemon(paths);
  if (probe.state === "running" || probe.state === "unhealthy") {
    ctx.print(`svc daemon is already running (pid ${probe.pid ?? probe.status?.pid ?? "?"}${probe.healthy ? "" : `, unhealthy: ${probe.reason}`}).`);
    return false;
  }
  if (probe.state === "stopping")
    await waitForExit(probe.pid ?? 0, STOP_TIMEOUT_MS);
  let exited = () => null;
  if (!await controlService(serviceOptions(ctx), "start")) {
    const child = spawnDetached({ node: process.execPath, args: [...DAEMON_NODE_FLAGS, binPath(), "daemon", "run"], env: { ...ctx.io.env, SVC_HOME: paths.root }, logFile: paths.daemonLog });
    exited = child.exited;
  }
  const up = await waitForHealthy(paths, START_TIMEOUT_MS, exited);
  ctx.print(`svc daemon started (pid ${up.pid})`);
  ctx.print(`Socket: ${paths.socket}`);
  ctx.print(`Log: ${paths.daemonLog}`);
  const config = await waitForConfig(paths);
  if (config && config.orgChart === "invalid") {
    formatConfig(config).forEach((line) => ctx.print(line));
    ctx.io.stderr("hint: fix org/org-chart.yaml (svc org validate lists every problem); the daemon reloads it when the file changes.\n");
  }
  return true;
}
async function status(ctx, json, port) {
  const paths = toPaths(ctx.root);
  const [probe, health] = await Promise.all([probeDaemon(paths), port === void 0 ? void 0 : checkHealthPort(port)]);
  const healthPort = port === void 0 || !health ? {} : { healthPort: { url: `http://${HEALTH_HOST}:${port}/health`, status: health.status, healthy: health.healthy, ...health.reason ? { reason: health.reason } : {} } };
  if (probe.state === "not-running") {
    ctx.exitCode = 3;
    if (json)
      return ctx.json({ status: "not running", healthy: false, ...healthPort });
    ctx.print("Status: not running");
    if (port !== void 0 && health)
      ctx.print(formatHealthPort(port, health));
    ctx.io.stderr("hint: start it with `svc daemon start` (or install the service with `svc daemon install`).\n");
    return;
  }
  if (!probe.healthy || health && !health.healthy)
    ctx.exitCode = 1;
  if (json)
    return ctx.json({ ...probe.status, healthy: probe.healthy, ...probe.reason ? { reason: probe.reason } : {}, ...healthPort });
  const lines = formatStatus(probe, paths);
  if (port !== void 0 && health)
    lines.splice(-2, 0, formatHealthPort(port, health));
  for (const line of lines)
    ctx.print(line);
}
function formatHealthPort(port, health) {
  const url = `http://${HEALTH_HOST}:${port}/health`;
  return health.healthy ? `Health port: ${url} answers 200 (healthy)` : `Health port: ${url} is not healthy (${health.reason})`;
}
async function stopDaemonProcess(ctx, force) {
  const paths = toPaths(ctx.root);
  const probe = await probeDaemon(paths);
  const pid = probe.pid ?? probe.status?.pid ?? null;
  if (pid === null)
    return void ctx.print("svc daemon is not running.");
  const how = !force && await controlService(serviceOptions(ctx), "stop") ? "through the supervisor" : terminate(pid) ? "SIGTERM" : "already gone";
  if (!await waitForExit(pid, STOP_TIMEOUT_MS)) {
    throw new SvcError("unavailable", `svc daemon (pid ${pid}) did not stop within ${STOP_TIMEOUT_MS / 1e3} s after ${how}.`, `See ${paths.daemonLog}; as a last resort: kill -9 ${pid}.`);
  }
  ctx.print(`svc daemon stopped (pid ${pid}, ${how}).`);
}
async function install(ctx) {
  const paths = toPaths(ctx.root);
  const watchdog = toDaemonSettings(await loadOrg(ctx.root)).watchdog.enabled;
  const report2 = await installService({ ...serviceOptions(ctx), watchdog });
  ctx.print(`${report2.changed ? "Wrote" : "Unchanged:"} ${report2.file}`);
  if (report2.watchdog)
    ctx.print(report2.watchdog.installed ? `${report2.watchdog.changed ? "Wrote" : "Unchanged:"} ${report2.watchdog.file} (the watchdog: aof.daemon.watchdog.enabled)` : `Removed ${report2.watchdog.file} (aof.daemon.watchdog.enabled is false)`);
  if (!report2.supervised) {
    ctx.print(`Not loaded: ${report2.why}.`);
    ctx.print("Start the daemon with `svc daemon start` (it runs detached; `svc daemon stop` stops it).");
    if (report2.watchdog?.installed)
      ctx.print("Run the watchdog with `svc daemon watchdog` (it runs in the foreground).");
    return;
  }
  const up = await waitForHealthy(paths, START_TIMEOUT_MS);
  ctx.print(`Loaded ${report2.kind === "systemd" ? "with systemctl --user" : "with launchctl"}; svc daemon running (pid ${up.pid}).`);
}
async function uninstall(ctx) {
  const paths = toPaths(ctx.root);
  const options = serviceOptions(ctx);
  const report2 = await uninstallService(options);
  const probe = await probeDaemon(paths);
  const pid = probe.pid ?? probe.status?.pid ?? null;
  if (pid !== null && terminate(pid) && !await waitForExit(pid, STOP_TIMEOUT_MS)) {
    throw new SvcError("unavailable", `svc daemon (pid ${pid}) did not stop within ${STOP_TIMEOUT_MS / 1e3} s.`, `See ${paths.daemonLog}.`);
  }
  if (pid !== null)
    ctx.print(`Stopped svc daemon (pid ${pid}).`);
  if (report2.watchdog?.changed)
    ctx.print(`Removed ${report2.watchdog.file}`);
  ctx.print(report2.changed ? `Removed ${report2.file}` : `Not installed (no ${report2.file}).`);
}
function formatStatus(probe, paths) {
  const s = probe.status;
  const state = probe.state === "running" ? "running (healthy)" : probe.state === "stopping" ? "running (stopping)" : `running (unhealthy: ${probe.reason})`;
  const lines = [`Status: ${state}`];
  if (s) {
    lines.push(`Version: ${s.version}`, `PID: ${probe.pid ?? s.pid}`, `Uptime: ${formatDuration(s.uptimeMs)}`, `Mode: ${s.mode}`);
    lines.push(`Tasks: ${Object.entries(s.tasks.byStatus).map(([name, n]) => `${name} ${n}`).join(", ")}${s.tasks.invalid ? `; ${s.tasks.invalid} invalid file(s), see svc doctor` : ""}`);
    for (const plugin of s.plugins)
      lines.push(`Plugin: ${plugin.id} (attached since ${plugin.since})`);
    if (s.config)
      lines.push(...formatConfig(s.config));
  }
  lines.push(`Socket: ${paths.socket}`, `Log: ${paths.daemonLog}`);
  return lines;
}
async function waitForConfig(paths) {
  const deadline = Date.now() + 2e3;
  for (; ; ) {
    const config = (await probeDaemon(paths)).status?.config;
    if (config || Date.now() > deadline)
      return config ?? null;
    await new Promise((resolve2) => setTimeout(resolve2, 50));
  }
}
function formatConfig(config) {
  if (config.orgChart === "ok")
    return [`Config: ${config.file} ok (${config.agents} agents)`];
  if (config.orgChart === "absent")
    return [`Config: no org chart (${config.file} absent: only routing.agent routes, no local agents)`];
  const count = config.problemCount === 1 ? "1 problem" : `${config.problemCount} problems`;
  const effect = config.using === "previous" ? `still using the chart loaded before` : "no chart loaded: ready tasks are held";
  const more = config.problemCount > config.problems.length ? [`  ... (${config.problemCount - config.problems.length} more: svc org validate)`] : [];
  return [`Config: ${config.file} INVALID since ${config.since} (${count}; ${effect}):`, ...config.problems.map((p) => `  ${p}`), ...more];
}
function formatDuration(ms) {
  const total = Math.floor(ms / 1e3);
  const [d, h, m, s] = [Math.floor(total / 86400), Math.floor(total / 3600) % 24, Math.floor(total / 60) % 60, total % 60];
  return [d ? `${d}d` : "", h ? `${h}h` : "", m ? `${m}m` : "", `${s}s`].filter(Boolean).join(" ");
}
function serviceOptions(ctx) {
  return { home: ctx.io.env.HOME || homedir(), svcHome: ctx.root, node: process.execPath, bin: binPath() };
}
function binPath() {
  return join4(findPackageRoot(), "bin", "svc.js");
}

export {
  registerDaemon,
  startDaemonProcess,
  stopDaemonProcess
};
