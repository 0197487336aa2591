import { isSafeId } from '../core/ids.js';
import type { Routing } from '../core/task.js';
import { toWorkflowFile } from '../org/files.js';
import { findGate, firstGate, loadWorkflow, type Workflow } from '../org/workflow.js';
import { createFileCache, type FileCache } from './file-cache.js';

/** What the resolver needs of a task. */
export interface GatedTask {
  id: string;
  routing: Routing;
  gate?: { workflow: string; current: string } | undefined;
}

/** Resolves the role of a gated task's current gate. */
export type GateRoleResolver = (task: GatedTask) => Promise<string | undefined>;

/**
 * A resolver that reads each workflow file once, and again only when it changes, so ticks do not
 * re-parse workflows. A workflow that fails to load routes as if ungated, and is logged.
 */
export function createGateRoleResolver(root: string, log: (line: string) => void = () => undefined): GateRoleResolver {
  const flows = new Map<string, FileCache<Workflow | null>>();
  return async (task) => {
    const name = task.gate?.workflow ?? task.routing.workflow;
    if (!name || !isSafeId(name)) return undefined;
    let flow = flows.get(name);
    if (!flow) {
      flow = createFileCache(toWorkflowFile(root, name), () => loadWorkflow(root, name).catch((err: unknown) => {
        log(`warning: workflow ${name} of ${task.id} cannot be loaded: ${err instanceof Error ? err.message : String(err)}`);
        return null;
      }));
      flows.set(name, flow);
    }
    const workflow = await flow.get();
    if (!workflow) return undefined;
    const gate = task.gate ? findGate(workflow, task.gate.current) : firstGate(workflow);
    return (gate ?? firstGate(workflow)).role;
  };
}
