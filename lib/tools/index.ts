import { svcTaskComplete } from './complete.js';
import { svcTaskDepAdd, svcTaskDepRemove } from './deps.js';
import { svcDispatch } from './dispatch.js';
import { svcTaskEdit } from './edit.js';
import { svcTaskNote } from './note.js';
import { svcStatus } from './status.js';
import { svcTaskBlock, svcTaskCancel, svcTaskUnblock } from './state.js';
import { svcTaskUpdate } from './update.js';
import type { ToolDef } from './registry.js';

/**
 * Every `svc_*` tool, in the specification's order. The daemon, the MCP server and the plugin manifest use this list.
 */
export const TOOLS: readonly ToolDef[] = [
  svcDispatch,
  svcTaskComplete,
  svcTaskUpdate,
  svcTaskEdit,
  svcTaskCancel,
  svcTaskDepAdd,
  svcTaskDepRemove,
  svcTaskBlock,
  svcTaskUnblock,
  svcStatus,
  svcTaskNote,
  // Each tool is typed by its own schema; the list holds them under the common contract.
] as unknown as readonly ToolDef[];
