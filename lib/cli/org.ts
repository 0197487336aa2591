import type { CAC } from 'cac';
import type { Context } from './context.js';

/** Registers the `svc org` commands. */
export function registerOrg(cli: CAC, ctx: Context): void {
  void cli;
  void ctx;
}
