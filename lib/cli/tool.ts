import { readFileSync } from 'node:fs';
import type { CAC } from 'cac';
import { SvcError } from '../core/errors.js';
import { TOOLS } from '../tools/index.js';
import { invokeTool } from '../tools/registry.js';
import type { Context } from './context.js';

/** Registers `svc tool <name> [params]`: invokes an svc_* tool on the tree and prints its result as JSON. */
export function registerTool(cli: CAC, ctx: Context): void {
  cli.command('tool <name> [params]', 'Invoke an svc_* tool; params is a JSON object, or - to read it from stdin')
    .option('--stdin', 'Read the params from stdin (what `-` means)')
    .example('svc tool svc_task_complete \'{"taskId":"TASK-2026-11-21-001","summary":"done"}\'')
    .action(async (name: string, params: string | undefined, opts: { stdin?: boolean }) => {
      const text = opts.stdin ? readFileSync(0, 'utf8') : (params ?? '{}');
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (err) {
        throw new SvcError('validation_error', `params is not JSON: ${(err as Error).message}`, `Quote the object, e.g. svc tool ${name} '{"taskId":"..."}'`);
      }
      const result = await invokeTool(TOOLS, name, parsed, { store: ctx.store() });
      ctx.json(result);
    });
}
