import { isDeepStrictEqual } from 'node:util';
import { svcBinPath } from '../../core/package-root.js';
import { PLUGIN_ID } from './gateway-steps.js';
import { objectAt, valueAt, type Step } from './step.js';

/** The name of svc's MCP server in the gateway config (`mcp.servers.svc`). */
export const MCP_SERVER = 'svc';

/**
 * Standalone mode (`--standalone`): agents reach the tools through `svc mcp`, registered as
 * `mcp.servers.svc`; the plugin entry, if enabled, is disabled so the tools are not served twice.
 * In plugin mode the step only says what it would do.
 */
export const mcpStep: Step = {
  name: 'mcp server',
  plan(state) {
    if (!state.standalone) {
      const present = valueAt(state.config, 'mcp', 'servers', MCP_SERVER) !== undefined;
      const why = 'plugin mode: the plugin serves the svc tools; `svc init --standalone` registers `svc mcp` instead';
      return {
        kind: 'skip',
        why,
        ...(present
          ? { notes: [`mcp.servers.${MCP_SERVER} also serves the svc tools: remove it or set its enabled to false`] }
          : {}),
      };
    }
    const server = {
      command: process.execPath,
      args: [svcBinPath(state.packageRoot), 'mcp'],
      env: { SVC_HOME: state.root },
    };
    const current = valueAt(state.config, 'mcp', 'servers', MCP_SERVER);
    const registered =
      isDeepStrictEqual(
        { command: valueAt(current, 'command'), args: valueAt(current, 'args'), env: valueAt(current, 'env') },
        server,
      ) && valueAt(current, 'enabled') !== false;
    const pluginOn = valueAt(state.config, 'plugins', 'entries', PLUGIN_ID, 'enabled') === true;
    const changes = [
      ...(registered
        ? []
        : [`mcp.servers.${MCP_SERVER} = ${server.command} ${server.args.join(' ')} (SVC_HOME=${state.root})`]),
      ...(pluginOn ? [`plugins.entries.${PLUGIN_ID}.enabled = false (the tools come over MCP)`] : []),
    ];
    if (!changes.length) return { kind: 'already' };
    return {
      kind: 'change',
      changes,
      apply: () => {
        if (!registered)
          objectAt(state.config, 'mcp', 'servers')[MCP_SERVER] = {
            ...(current as object | undefined),
            ...server,
            enabled: true,
          };
        if (pluginOn) objectAt(state.config, 'plugins', 'entries', PLUGIN_ID).enabled = false;
      },
    };
  },
};
