import { isSafeId } from '../core/ids.js';
import type { Routing } from '../core/task.js';
import { toWorkflowFile } from '../org/files.js';
import { findGate, firstGate, loadWorkflow, type Workflow } from '../org/workflow.js';
import { createFileCache, type FileCache } from './file-cache.js';
import { describeError } from '../core/errors.js';

/** What the resolver needs of a task. */
export interface GatedTask {
  id: string;
  routing: Routing;
  gate?: { workflow: string; current: string } | undefined;
}

/** The current gate of a gated task as the planner needs it: its role, or that a person approves it. */
export interface GateRoute {
  role?: string | undefined;
  approval: boolean;
}

/** Resolves the current gate of a gated task (undefined for an ungated one). */
export type GateRoleResolver = (task: GatedTask) => Promise<GateRoute | undefined>;

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
      flow = createFileCache(toWorkflowFile(root, name), () =>
        loadWorkflow(root, name).catch((err: unknown) => {
          log(`warning: workflow ${name} of ${task.id} cannot be loaded: ${describeError(err)}`);
          return null;
        }),
      );
      flows.set(name, flow);
    }
    const workflow = await flow.get();
    if (!workflow) return undefined;
    const gate = (task.gate ? findGate(workflow, task.gate.current) : null) ?? firstGate(workflow);
    return { role: gate.role, approval: gate.approval === true };
  };
}
