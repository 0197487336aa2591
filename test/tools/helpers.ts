import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as assert from 'uvu/assert';
import { readEvents } from '../../lib/store/events/log.js';
import { createStore, type Store } from '../../lib/store/commit/store.js';
import { claimTask } from '../../lib/store/changes/work.js';
import { TOOLS } from '../../lib/tools/index.js';
import { invokeTool, type ToolContext } from '../../lib/tools/registry.js';
import { fixedClock, tempRoot } from '../helpers/root.js';

/** A small org chart: agents dev and lead, role implementer/reviewer, team core. */
export const ORG_CHART = `schemaVersion: 1
agents:
  - { id: dev, name: Developer, capabilities: [typescript] }
  - { id: lead, name: Lead, capabilities: [typescript, review] }
teams:
  - { id: core, name: Core, members: [dev, lead] }
roles:
  implementer: { agents: [dev] }
  reviewer: { agents: [lead] }
`;

/** A two-gate workflow. */
export const WORKFLOW = `workflow:
  name: implement-review
  gates:
    - { id: implement, role: implementer, description: Write it }
    - { id: review, role: reviewer, description: Review it, canReject: true }
`;

/** A temp root with a store on a fixed clock, and `call(tool, params)` over the real tools. */
export function setup(options: { org?: string; workflows?: Record<string, string> } = {}) {
  const root = tempRoot();
  const clock = fixedClock();
  const store = createStore({ root, clock });
  if (options.org) writeOrgFile(root, 'org-chart.yaml', options.org);
  for (const [name, text] of Object.entries(options.workflows ?? {}))
    writeOrgFile(root, `workflows/${name}.yaml`, text);
  const committed: string[][] = [];
  const ctx: ToolContext = { store, onCommitted: (ids) => void committed.push([...ids]) };
  const call = <T = Record<string, unknown>>(name: string, params: unknown) =>
    invokeTool(TOOLS, { tool: name, params }, ctx) as Promise<T>;
  return { root, clock, store, ctx, committed, call, events: () => readEvents(root) };
}

/** Creates a task in progress (ready, then claimed) and returns its id and lease session. */
export async function inProgressTask(
  store: Store,
  options: { agent?: string; workflow?: string; title?: string } = {},
) {
  const routing = { agent: options.agent ?? 'dev', ...(options.workflow ? { workflow: options.workflow } : {}) };
  const created = await store.create({ title: options.title ?? 'Work', status: 'ready', routing, createdBy: 'test' });
  const claimed = await claimTask(store, created.task.id, { actor: 'test', agent: routing.agent });
  return { id: created.task.id, sessionId: claimed.after.task.lease!.sessionId };
}

/** Asserts that `promise` rejects with an SvcError of `code` whose message contains every `parts`. */
export async function rejects(
  promise: Promise<unknown>,
  code: string,
  ...parts: string[]
): Promise<{ message: string; hint?: string }> {
  try {
    await promise;
  } catch (err) {
    const error = err as { code?: string; message: string; hint?: string };
    assert.is(error.code, code, `expected ${code}, got ${error.code}: ${error.message}`);
    for (const part of parts)
      assert.ok(error.message.includes(part), `message lacks ${JSON.stringify(part)}: ${error.message}`);
    return error;
  }
  assert.unreachable(`should fail with ${code}`);
  throw new Error('unreachable');
}

/** Every file under tasks/ and data/ (locks and counters aside) with its content: compare two to prove nothing changed. */
export function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const top of ['tasks', 'data']) walk(join(root, top), root, out);
  return out;
}

// --- internal ---

function writeOrgFile(root: string, name: string, text: string): void {
  const file = join(root, 'org', name);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, text);
}

function walk(dir: string, root: string, out: Record<string, string>): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (name === '.locks' || name === '.seq') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, root, out);
    else out[relative(root, path)] = readFileSync(path, 'utf8');
  }
}
