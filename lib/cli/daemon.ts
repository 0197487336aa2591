import type { CAC } from 'cac';
import type { Context } from './context.js';

/** Registers the `svc daemon` commands. */
export function registerDaemon(cli: CAC, ctx: Context): void {
  void cli;
  void ctx;
}
