import type { CAC } from 'cac';
import { startMcpServer } from '../mcp/server.js';
import type { Context } from './frame/context.js';
import { readVersion } from './frame/version.js';

/** Registers `svc mcp`: the MCP stdio server over the tools of `SVC_HOME`. */
export function registerMcp(cli: CAC, ctx: Context): void {
  cli.command('mcp', 'Serve the svc_* tools over MCP on stdio (stdout carries the protocol only)').action(async () => {
    const server = startMcpServer({
      root: ctx.root,
      stdin: process.stdin,
      stdout: process.stdout,
      version: readVersion(),
      onError: (error) => ctx.io.stderr(`svc mcp: ${error.message}\n`),
    });
    await server.closed;
  });
}
