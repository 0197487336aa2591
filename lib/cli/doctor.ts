import type { CAC } from 'cac';
import type { Context } from './context.js';

/** Registers the `svc doctor` commands. */
export function registerDoctor(cli: CAC, ctx: Context): void {
  void cli;
  void ctx;
}
