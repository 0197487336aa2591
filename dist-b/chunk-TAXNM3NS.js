import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// dist/store/paths.js
import { homedir } from "node:os";
import { join, resolve } from "node:path";
function toRoot(svcHome) {
  return resolve(svcHome && svcHome.trim() ? svcHome : join(homedir(), ".svc"));
}
function toPaths(rootArg) {
  const root = resolve(rootArg);
  const tasks = join(root, "tasks");
  const data = join(root, "data");
  const org = join(root, "org");
  const locks = join(tasks, ".locks");
  const seq = join(tasks, ".seq");
  const events = join(data, "events");
  const workflows = join(org, "workflows");
  const murmur = join(root, ".murmur");
  return {
    root,
    tasks,
    locks,
    seq,
    org,
    data,
    events,
    workflows,
    murmur,
    orgChart: join(org, "org-chart.yaml"),
    socket: join(data, "daemon.sock"),
    pidFile: join(data, "daemon.pid"),
    logs: join(data, "logs"),
    daemonLog: join(data, "logs", "daemon.log"),
    watchdogLog: join(data, "logs", "watchdog.log"),
    conflicts: join(data, "conflicts"),
    envFile: join(data, "daemon.env"),
    spawns: join(data, "spawns"),
    slaAlerts: join(data, "sla-alerts.json"),
    statusDir: (status) => join(tasks, status),
    taskFile: (status, id) => join(tasks, status, `${id}.md`),
    lockFile: (id) => join(locks, `${id}.lock`),
    seqDir: (date) => join(seq, date),
    eventFile: (date) => join(events, `${date}.jsonl`),
    workflowFile: (name) => join(workflows, `${name}.yaml`),
    murmurFile: (teamId) => join(murmur, `${teamId}.json`),
    orgDoc: (name) => join(org, `${name}.md`)
  };
}
function toTaskId(fileName) {
  if (fileName.startsWith(".") || !fileName.endsWith(".md"))
    return null;
  const id = fileName.slice(0, -3);
  return /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(id) && !id.includes("..") && !/\.md\./.test(fileName) ? id : null;
}
function isTempName(fileName) {
  return !fileName.startsWith(".") && /\.md\.[^/]+$/.test(fileName);
}

export {
  toRoot,
  toPaths,
  toTaskId,
  isTempName
};
