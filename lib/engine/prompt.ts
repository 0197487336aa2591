import type { Task } from '../core/task.js';

/** The spawn prompt: the task, its gate and role, and exactly how to finish and heartbeat. */
export function toPrompt(task: Task, body: string, run: { sessionId: string; gateRole?: string }): string {
  const { sessionId, gateRole } = run;
  const gated = task.gate
    ? `\nWorkflow: ${task.gate.workflow}, current gate: ${task.gate.current}${gateRole ? ` (role ${gateRole})` : ''}.`
    : '';
  return [
    `You are assigned task ${task.id}: ${task.title}`,
    `Priority: ${task.priority}.${gated}`,
    '',
    ...(task.workspace
      ? [
          `Workspace: work in the git worktree ${task.workspace.path} on branch ` +
            `${task.workspace.branch} (commit your changes there; later gates work in the same worktree).`,
          '',
        ]
      : []),
    body.trim() || '(no brief)',
    '',
    ...toFinishLines(task, sessionId),
  ].join('\n');
}

/** How to finish, renew the lease and block under `sessionId`: the end of every spawn prompt. */
export function toFinishLines(task: Pick<Task, 'id' | 'gate'>, sessionId: string): string[] {
  const outcome = task.gate
    ? ', outcome: "complete" | "needs_review" | "blocked" (with blockers for the last two)'
    : '';
  return [
    'When you are done, call:',
    `  svc_task_complete({ taskId: "${task.id}", sessionId: "${sessionId}"${outcome}, summary: "<what you did>" })`,
    'While you work, renew your lease at least every few minutes with:',
    `  svc_task_update({ taskId: "${task.id}", sessionId: "${sessionId}" })`,
    'If you cannot proceed, call:',
    `  svc_task_block({ taskId: "${task.id}", sessionId: "${sessionId}", reason: "<what you wait for>" })`,
  ];
}
