import type { CAC } from 'cac';
import { startMcpServer, type RunBinding } from '../mcp/server.js';
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
      ...toRunBinding(ctx.io.env),
    });
    await server.closed;
  });
}

/**
 * The run a server started for an agent runtime serves (`SVC_RUN_TASK_ID`, `SVC_RUN_SESSION_ID`, `SVC_RUN_AGENT`, set
 * by the daemon in the MCP config it writes), when all three are set.
 */
function toRunBinding(env: Record<string, string | undefined>): { run?: RunBinding } {
  const taskId = env.SVC_RUN_TASK_ID;
  const sessionId = env.SVC_RUN_SESSION_ID;
  const agent = env.SVC_RUN_AGENT;
  return taskId && sessionId && agent ? { run: { taskId, sessionId, agent } } : {};
}
