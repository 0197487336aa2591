/**
 * The names of the agent tools, in the specification's order, then svc's own (a test holds them equal to `TOOLS`): for
 * help and "did you mean" without loading the tools.
 */
export const TOOL_NAMES = [
  'svc_dispatch',
  'svc_task_complete',
  'svc_task_update',
  'svc_task_edit',
  'svc_task_cancel',
  'svc_task_dep_add',
  'svc_task_dep_remove',
  'svc_task_block',
  'svc_task_unblock',
  'svc_status',
  'svc_task_note',
] as const;

/**
 * The approval tools (`tools/approval.ts`): on the daemon's socket and `svc tool`, never offered to agents over MCP or
 * the plugin.
 */
export const APPROVAL_TOOL_NAMES = ['svc_task_approve', 'svc_task_reject'] as const;
