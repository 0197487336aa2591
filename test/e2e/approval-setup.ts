import { mkdirSync, writeFileSync } from 'node:fs';
import * as assert from 'uvu/assert';
import { createStore } from '../../lib/store/commit/store.js';
import { completingAgent, writeOrg } from '../helpers/agents.js';
import { healthy, runSvc, type ChildDaemon } from '../helpers/daemon.js';
import { tempRoot, within } from '../helpers/root.js';

// The set-up the approval e2e tests share: a workflow `ship` whose agent gate is followed by approval gates.

/** Options of `setUpShip`: the agent's argv (a completing one by default) and the approval gates after `implement`. */
export interface ShipOptions {
  agent?: string[];
  approvals?: string[];
}

/** A root with agent `dev` (role implementer), workflow ship (implement, then the approval gates), a daemon, and one task promoted. */
export async function setUpShip(
  start: (root: string) => ChildDaemon,
  options: ShipOptions = {},
): Promise<{ root: string; env: Record<string, string>; id: string; daemon: ChildDaemon }> {
  const root = tempRoot();
  writeOrg(root, {
    agents: [
      { id: 'dev', name: 'Dev', command: options.agent ?? completingAgent('implemented', { outcome: 'complete' }) },
    ],
    roles: { implementer: { agents: ['dev'] } },
    aof: { daemon: { bootWindowMs: 200, pollIntervalMs: 200 } },
  });
  mkdirSync(`${root}/org/workflows`, { recursive: true });
  const gates = (options.approvals ?? ['sign1', 'sign2'])
    .map((gate) => `    - id: ${gate}\n      approval: true\n`)
    .join('');
  writeFileSync(
    `${root}/org/workflows/ship.yaml`,
    `workflow:\n  name: ship\n  gates:\n    - id: implement\n      role: implementer\n${gates}`,
  );
  const env = { SVC_HOME: root, HOME: root };
  const daemon = start(root);
  await healthy(root);
  const created = await runSvc(env, 'task', 'create', 'Ship it', '--workflow', 'ship', '--json');
  assert.is(created.code, 0, created.stderr);
  const id = (JSON.parse(created.stdout) as { id: string }).id;
  assert.is((await runSvc(env, 'task', 'promote', id)).code, 0);
  return { root, env, id, daemon };
}

/** Waits until the task waits for approval at `gate`. */
export async function awaitingAt(root: string, id: string, gate: string): Promise<void> {
  await within(
    20_000,
    async () => {
      const stored = await createStore({ root }).get(id);
      return (
        (stored.task.metadata.awaiting as { gate?: string } | undefined)?.gate === gate && stored.status === 'blocked'
      );
    },
    `${id} to wait at gate ${gate}`,
  );
}
