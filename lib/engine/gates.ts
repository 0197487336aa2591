import type { Routing } from '../core/task.js';
import { findGate, firstGate, loadWorkflow, type Workflow } from '../org/workflow.js';

/** What the resolver needs of a task. */
export interface GatedTask {
  id: string;
  routing: Routing;
  gate?: { workflow: string; current: string } | undefined;
}

/** Resolves the role of a gated task's current gate; workflows are read once per resolver. */
export type GateRoleResolver = (task: GatedTask) => Promise<string | undefined>;

/** A resolver for one snapshot (a workflow that fails to load routes as if ungated, and is logged). */
export function createGateRoleResolver(root: string, log: (line: string) => void = () => undefined): GateRoleResolver {
  const cache = new Map<string, Promise<Workflow | null>>();
  return async (task) => {
    const name = task.gate?.workflow ?? task.routing.workflow;
    if (!name) return undefined;
    let flow = cache.get(name);
    if (!flow) {
      flow = loadWorkflow(root, name).catch((err: unknown) => {
        log(`warning: workflow ${name} of ${task.id} cannot be loaded: ${err instanceof Error ? err.message : String(err)}`);
        return null;
      });
      cache.set(name, flow);
    }
    const workflow = await flow;
    if (!workflow) return undefined;
    const gate = task.gate ? findGate(workflow, task.gate.current) : firstGate(workflow);
    return (gate ?? firstGate(workflow)).role;
  };
}
