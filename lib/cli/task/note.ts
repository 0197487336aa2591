import type { CAC } from 'cac';
import type { NoteResult } from '../../tools/note.js';
import type { Context } from '../frame/context.js';
import { toText } from '../output/format.js';
import { operateWith } from '../frame/operate.js';
import { OPERATOR } from './caller.js';

/**
 * Registers `svc task note <id> <text>`: the `svc_task_note` tool, over the daemon's socket when one
 * runs, else in this process on the files (the tool's module alone is loaded).
 */
export function registerTaskNote(cli: CAC, ctx: Context): void {
  cli
    .command(
      'note <id> <...text>',
      'Append a timestamped note under the body\'s "## Notes" heading (never replaces the body)',
    )
    .option('--agent <id>', `Write the note as this agent (default ${OPERATOR})`)
    .option('--session <id>', 'Name the lease to act under (a stale session is refused)')
    .option('--json', 'Print JSON')
    .example('svc task note 007 asked the API team for the keys')
    .action(async (id: string, words: string[], opts: Record<string, unknown>) => {
      const session = toText(opts.session);
      const params = {
        taskId: String(id),
        text: words.join(' '),
        actor: toText(opts.agent) ?? OPERATOR,
        ...(session ? { sessionId: session } : {}),
      };
      const result = await operateWith<NoteResult>(ctx, { tool: 'svc_task_note', params }, async () => [
        (await import('../../tools/note.js')).svcTaskNote,
      ]);
      if (opts.json) return ctx.json(result);
      ctx.print(`${result.taskId} noted (${ctx.paint.status(result.status)})`);
    });
}
