import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// dist/cli/format.js
function toListRow(stored) {
  const { task } = stored;
  return {
    id: task.id,
    title: task.title,
    status: stored.status,
    priority: task.priority,
    agent: task.lease?.agent ?? task.routing.agent ?? null,
    createdAt: task.createdAt,
    updatedAt: task.updatedAt,
    dependsOn: task.dependsOn,
    path: stored.path
  };
}
function formatTaskTable(tasks) {
  if (!tasks.length)
    return ["(no tasks)"];
  const rows = tasks.map((t) => [t.id, t.status, t.priority, t.agent ?? "-", t.title]);
  const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => r[i].length), ["ID", "STATUS", "PRIORITY", "AGENT"][i].length));
  const line = (r) => r.map((cell, i) => i < 4 ? cell.padEnd(widths[i]) : cell).join("  ");
  return [line(["ID", "STATUS", "PRIORITY", "AGENT", "TITLE"]), ...rows.map(line)];
}
function formatTaskDetail(stored) {
  const { task } = stored;
  const lines = [
    `id: ${task.id}`,
    `title: ${task.title}`,
    `status: ${stored.status}`,
    `priority: ${task.priority}`,
    `project: ${task.project}`,
    `routing: ${JSON.stringify(task.routing)}`,
    `dependsOn: ${task.dependsOn.length ? task.dependsOn.join(", ") : "(none)"}`,
    `createdAt: ${task.createdAt}`,
    `updatedAt: ${task.updatedAt}`,
    `lastTransitionAt: ${task.lastTransitionAt}`,
    `createdBy: ${task.createdBy}`
  ];
  if (task.lease)
    lines.push(`lease: ${task.lease.agent} until ${task.lease.expiresAt} (session ${task.lease.sessionId})`);
  if (task.gate)
    lines.push(`gate: ${task.gate.workflow} / ${task.gate.current}`);
  if (task.parentId)
    lines.push(`parentId: ${task.parentId}`);
  if (Object.keys(task.metadata).length)
    lines.push(`metadata: ${JSON.stringify(task.metadata)}`);
  lines.push(`file: ${stored.path}`);
  if (stored.body.trim())
    lines.push("", stored.body.trimEnd());
  return lines;
}
function formatInvalid(invalid) {
  return invalid.map((file) => `warning: skipped invalid task file ${file.message.split("\n").join(" ")}`);
}
function toText(value) {
  return value === void 0 || value === null || value === true || value === false ? void 0 : String(value);
}
function toList(value) {
  if (value === void 0 || value === null || value === "")
    return void 0;
  const parts = (Array.isArray(value) ? value : [value]).flatMap((v) => String(v).split(","));
  const out = parts.map((p) => p.trim()).filter(Boolean);
  return out.length ? out : void 0;
}

export {
  toListRow,
  formatTaskTable,
  formatTaskDetail,
  formatInvalid,
  toText,
  toList
};
