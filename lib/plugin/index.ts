import type { PluginApi } from './api.js';
import { toPluginSettings, type PluginEnvironment } from './config.js';
import { registerHooks } from './hooks.js';
import { createSpawnService } from './service.js';
import { createToolFactories, loadToolSchemas, type ToolSchema } from './tools.js';

/** The plugin id (`plugins.entries.svc` in the gateway config; the manifest's `id`). */
export const PLUGIN_ID = 'svc';

/** Options of `createPlugin`: tests inject the environment, the schemas and the service timings. */
export interface CreatePluginOptions {
  environment?: PluginEnvironment;
  schemas?: readonly ToolSchema[];
  retryMinMs?: number;
  waitSliceMs?: number;
}

/**
 * The OpenClaw plugin entry: `register(api)` registers the `svc_*` tools (factory form),
 * forwards the lifecycle hooks to the daemon (not in the metadata-only modes) and, in the gateway's
 * full mode only, registers the spawn service.
 * It stays synchronous and keeps no state between calls (the gateway may register several times).
 */
export function createPlugin(options: CreatePluginOptions = {}) {
  return {
    id: PLUGIN_ID,
    name: 'svc',
    description: 'svc task coordination: svc_* tools, lifecycle events and task spawns through the svc daemon',
    register(api: PluginApi): void {
      const settings = toPluginSettings(api.pluginConfig, options.environment ?? { env: process.env });
      const socket = () => settings.socket;
      const schemas = options.schemas ?? loadToolSchemas();
      for (const { name, factory } of createToolFactories(schemas, socket)) api.registerTool(factory, { name });
      if (api.registrationMode === 'cli-metadata' || api.registrationMode === 'setup-only') return;
      registerHooks(api, { socket, logger: api.logger, pluginId: PLUGIN_ID });
      if (api.registrationMode !== 'full') return;
      api.registerService(
        createSpawnService({
          settings,
          subagent: () => api.runtime.subagent,
          logger: api.logger,
          pluginId: PLUGIN_ID,
          toolNames: schemas.map((schema) => schema.name),
          ...(options.retryMinMs ? { retryMinMs: options.retryMinMs } : {}),
          ...(options.waitSliceMs ? { waitSliceMs: options.waitSliceMs } : {}),
        }),
      );
    },
  };
}

/** What the gateway loads (`openclaw.extensions` in package.json names the built file). */
export default createPlugin();
