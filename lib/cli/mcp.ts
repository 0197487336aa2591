import type { CAC } from 'cac';
import type { Context } from './context.js';

/** Registers the `svc mcp` commands. */
export function registerMcp(cli: CAC, ctx: Context): void {
  void cli;
  void ctx;
}
