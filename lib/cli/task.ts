import type { CAC } from 'cac';
import type { Context } from './context.js';

/** Registers the `svc task` commands. */
export function registerTask(cli: CAC, ctx: Context): void {
  void cli;
  void ctx;
}
