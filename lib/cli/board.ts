import type { CAC } from 'cac';
import type { Context } from './context.js';

/** Registers the `svc board` commands. */
export function registerBoard(cli: CAC, ctx: Context): void {
  void cli;
  void ctx;
}
