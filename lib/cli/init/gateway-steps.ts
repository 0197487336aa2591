import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expandHome } from './config-file.js';
import { findEntry, readRoster, toRequester } from './roster.js';
import { objectAt, stringsAt, valueAt, type Plan, type Step } from './step.js';
import { toGatewayAgentIds } from './org-draft.js';

/** The plugin id svc registers under (`openclaw.plugin.json`). */
export const PLUGIN_ID = 'svc';

/** Registers the plugin: its load path, an enabled entry with a valid config, conversation access for `agent_end`. */
export const pluginStep: Step = {
  name: 'plugin',
  plan(state) {
    if (state.standalone) return { kind: 'skip', why: 'standalone mode: agents reach the tools over MCP' };
    const { config, packageRoot, root } = state;
    const changes: string[] = [];
    const paths = stringsAt(config, 'plugins', 'load', 'paths');
    const loaded = paths.some((path) => resolve(expandHome(path, state.env)) === packageRoot);
    if (!loaded) changes.push(`plugins.load.paths += ${packageRoot}`);
    const stale = paths.filter(
      (path) =>
        resolve(expandHome(path, state.env)) !== packageRoot && isSvcPlugin(resolve(expandHome(path, state.env))),
    );
    if (stale.length)
      changes.push(`plugins.load.paths -= ${stale.join(', ')} (another copy of svc: one plugin id, one path)`);
    const entry = valueAt(config, 'plugins', 'entries', PLUGIN_ID);
    if (valueAt(entry, 'enabled') !== true) changes.push(`plugins.entries.${PLUGIN_ID}.enabled = true`);
    if (valueAt(entry, 'config', 'dryRun') !== false)
      changes.push(`plugins.entries.${PLUGIN_ID}.config.dryRun = false`);
    if (valueAt(entry, 'config', 'dataDir') !== root)
      changes.push(`plugins.entries.${PLUGIN_ID}.config.dataDir = ${root}`);
    if (valueAt(entry, 'hooks', 'allowConversationAccess') !== true)
      changes.push(`plugins.entries.${PLUGIN_ID}.hooks.allowConversationAccess = true (for agent_end)`);
    const notes = pluginNotes(config);
    if (!changes.length) return { kind: 'already', notes };
    return {
      kind: 'change',
      changes,
      notes,
      apply: () => {
        const kept = ((valueAt(config, 'plugins', 'load', 'paths') as unknown[] | undefined) ?? []).filter(
          (path) => !stale.includes(path as string),
        );
        objectAt(config, 'plugins', 'load').paths = loaded ? kept : [...kept, packageRoot];
        const node = objectAt(config, 'plugins', 'entries', PLUGIN_ID);
        node.enabled = true;
        Object.assign(objectAt(node, 'config'), { dryRun: false, dataDir: root });
        objectAt(node, 'hooks').allowConversationAccess = true;
      },
    };
  },
};

/**
 * The allow-lists: `plugins.allow` (when the gateway has one), `gateway.tools.allow` and the requester's
 * `subagents.allowAgents`.
 */
export const allowStep: Step = {
  name: 'allow-list',
  plan(state) {
    const { config } = state;
    const changes: string[] = [];
    const pluginAllow = valueAt(config, 'plugins', 'allow');
    const needsPluginAllow = Array.isArray(pluginAllow) && !pluginAllow.includes(PLUGIN_ID);
    if (needsPluginAllow) changes.push(`plugins.allow += ${PLUGIN_ID}`);
    const needsSpawn = !stringsAt(config, 'gateway', 'tools', 'allow').includes('sessions_spawn');
    if (needsSpawn)
      changes.push('gateway.tools.allow += sessions_spawn (standalone mode spawns through /tools/invoke)');
    const requester = toRequester(config);
    const roster = readRoster(config).ids;
    const targets = toGatewayAgentIds(state.org).filter((id) => roster.includes(id));
    const allowed = requester ? stringsAt(findEntry(config, requester), 'subagents', 'allowAgents') : [];
    const missing = allowed.includes('*') ? [] : targets.filter((id) => !allowed.includes(id));
    if (requester && missing.length) changes.push(`agent ${requester}: subagents.allowAgents += ${missing.join(', ')}`);
    const notes = requester
      ? []
      : [
          `no agent to give subagents.allowAgents (no \`main\`, no ` +
            `agents.defaults.systemAgent): set it on the agent that calls sessions_spawn`,
        ];
    if (!changes.length) return { kind: 'already', notes };
    return {
      kind: 'change',
      changes,
      notes,
      apply: () => {
        if (needsPluginAllow) objectAt(config, 'plugins').allow = [...pluginAllow, PLUGIN_ID];
        if (needsSpawn)
          objectAt(config, 'gateway', 'tools').allow = [
            ...stringsAt(config, 'gateway', 'tools', 'allow'),
            'sessions_spawn',
          ];
        if (requester && missing.length)
          objectAt(findEntry(config, requester, true)!, 'subagents').allowAgents = [...allowed, ...missing];
      },
    };
  },
};

/** The memory module: asked on a terminal; otherwise it stays as it is (disabled unless enabled before). */
export const memoryStep: Step = {
  name: 'memory',
  async plan(state): Promise<Plan> {
    const memoryConfig = valueAt(state.config, 'plugins', 'entries', PLUGIN_ID, 'config', 'memory');
    if (
      valueAt(state.config, 'plugins', 'entries', PLUGIN_ID, 'config', 'modules', 'memory', 'enabled') === true &&
      memoryConfig
    )
      return { kind: 'already' };
    if (!state.ask)
      return { kind: 'skip', why: 'the memory module stays disabled; run `svc init` on a terminal to configure it' };
    if (!/^y/i.test(await state.ask('Enable the memory module (embeddings for memory search)? [y/N]', 'n')))
      return { kind: 'skip', why: 'declined; the memory module stays disabled' };
    const provider = await state.ask('  embedding provider [openai]', 'openai');
    const model = await state.ask('  embedding model [text-embedding-3-small]', 'text-embedding-3-small');
    const apiKey = await state.ask('  API key (or ${ENV_VAR}) [${OPENAI_API_KEY}]', '${OPENAI_API_KEY}');
    const memory = {
      embedding: { provider, model, apiKey },
      search: { hybridEnabled: true, vectorWeight: 0.7, bm25Weight: 0.3, maxResults: 10 },
    };
    return {
      kind: 'change',
      asked: true,
      changes: [
        `plugins.entries.${PLUGIN_ID}.config.modules.memory.enabled = true`,
        `plugins.entries.${PLUGIN_ID}.config.memory = ${provider} ${model}, hybrid search`,
      ],
      apply: () => {
        const node = objectAt(state.config, 'plugins', 'entries', PLUGIN_ID, 'config');
        objectAt(node, 'modules', 'memory').enabled = true;
        node.memory = memory;
      },
    };
  },
};

// --- internal ---

/** True when `dir` holds an OpenClaw plugin manifest with svc's id. */
function isSvcPlugin(dir: string): boolean {
  try {
    return (JSON.parse(readFileSync(join(dir, 'openclaw.plugin.json'), 'utf8')) as { id?: unknown }).id === PLUGIN_ID;
  } catch {
    return false;
  }
}

function pluginNotes(config: Record<string, unknown>): string[] {
  const notes: string[] = [];
  if (valueAt(config, 'plugins', 'enabled') === false)
    notes.push('plugins.enabled is false: the gateway loads no plugin until it is true');
  if (stringsAt(config, 'plugins', 'deny').includes(PLUGIN_ID))
    notes.push(`plugins.deny lists ${PLUGIN_ID}: deny wins; remove it there`);
  return notes;
}
