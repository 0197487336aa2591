import type { ToolDef } from '../../tools/registry.js';

/**
 * Each tool `svc tool` calls, by name, loaded from its own module: without a daemon the command
 * runs one tool, and loading them all (`tools/index.ts`: every schema, the org chart's code) cost
 * more than the call. `test/cli/frame/tool-modules.test.ts` holds this list equal to the tools.
 */
const MODULES: Record<string, () => Promise<unknown>> = {
  svc_dispatch: async () => (await import('../../tools/dispatch.js')).svcDispatch,
  svc_task_complete: async () => (await import('../../tools/complete.js')).svcTaskComplete,
  svc_task_update: async () => (await import('../../tools/update.js')).svcTaskUpdate,
  svc_task_edit: async () => (await import('../../tools/edit.js')).svcTaskEdit,
  svc_task_cancel: async () => (await import('../../tools/state.js')).svcTaskCancel,
  svc_task_dep_add: async () => (await import('../../tools/deps.js')).svcTaskDepAdd,
  svc_task_dep_remove: async () => (await import('../../tools/deps.js')).svcTaskDepRemove,
  svc_task_block: async () => (await import('../../tools/state.js')).svcTaskBlock,
  svc_task_unblock: async () => (await import('../../tools/state.js')).svcTaskUnblock,
  svc_status: async () => (await import('../../tools/status.js')).svcStatus,
  svc_task_note: async () => (await import('../../tools/note.js')).svcTaskNote,
  svc_task_approve: async () => (await import('../../tools/approval.js')).svcTaskApprove,
  svc_task_reject: async () => (await import('../../tools/approval.js')).svcTaskReject,
};

/** The names `loadTool` knows. */
export const LOADABLE_TOOLS: readonly string[] = Object.keys(MODULES);

/** The tool of this name, alone (an empty list for a name it does not know). */
export async function loadTool(name: string): Promise<readonly ToolDef[]> {
  const load = Object.hasOwn(MODULES, name) ? MODULES[name] : undefined;
  return load ? [(await load()) as ToolDef] : [];
}
