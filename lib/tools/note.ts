import * as z from 'zod';
import type { Status } from '../core/status.js';
import { MAX_NOTE_LENGTH, noteTask } from '../store/changes/note.js';
import { actorParam, idParam, notifyCommitted, sessionIdParam, toCaller, toolParams } from './params.js';
import type { ToolDef } from './registry.js';

/** What `svc_task_note` returns. */
export interface NoteResult {
  taskId: string;
  status: Status;
  /** The line appended under `## Notes`. */
  note: string;
}

/** `svc_task_note` params. */
export const NoteParams = toolParams({
  taskId: idParam('The task: full id or unique prefix.'),
  text: z
    .string()
    .min(1)
    .max(MAX_NOTE_LENGTH)
    .describe('The note: plain text (newlines allowed, no control characters), one entry.'),
  actor: actorParam,
  sessionId: sessionIdParam,
});

/** `svc_task_note`: appends a timestamped note under the body's `## Notes` heading. */
export const svcTaskNote: ToolDef<typeof NoteParams> = {
  name: 'svc_task_note',
  description:
    'Append a timestamped note ("- 2026-11-25T10:00Z <actor>: <text>") under ' +
    'the "## Notes" heading of a task\'s body; it never replaces the body, so ' +
    'notes of several agents and humans all stay. On a task you work on, pass ' +
    'your sessionId (a stale one is refused). Returns {taskId, status, note}.',
  params: NoteParams,
  async handler(params, ctx): Promise<NoteResult> {
    const result = await noteTask(ctx.store, params.taskId, {
      ...toCaller(params, 'svc_task_note'),
      text: params.text,
    });
    const taskId = result.after.task.id;
    await notifyCommitted(ctx, [taskId]);
    const lines = result.after.body.trimEnd().split('\n');
    return {
      taskId,
      status: result.after.status,
      note: lines.slice(lines.findLastIndex((line) => line.startsWith('- '))).join('\n'),
    };
  },
};
