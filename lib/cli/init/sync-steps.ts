import { readFileSync } from 'node:fs';
import { isSafeId } from '../../core/ids.js';
import { templatePath } from '../../core/package-root.js';
import { readConfigText } from './config-file.js';
import { addOrgAgents, toGatewayAgentIds, toOrgAgentIds } from './org-draft.js';
import { addGatewayAgents, needsOwnership, readRoster, settleOwnership, toAgentName } from './roster.js';
import { objectAt, valueAt, type InitState, type Plan, type Step } from './step.js';

/** Gateway agents missing from the org chart are added to it (as agents working through the gateway). */
export const orgFromGatewayStep: Step = {
  name: 'org chart',
  plan(state) {
    if (state.org.problem) return skipInvalidOrg(state);
    const known = new Set(toOrgAgentIds(state.org));
    const ids = readRoster(state.config).ids.filter((id) => !known.has(id));
    const unsafe = ids.filter((id) => !isSafeId(id));
    const agents = ids.filter(isSafeId).map((id) => ({ id, name: toAgentName(state.config, id) }));
    const notes = unsafe.length ? [`not added (ids svc cannot use): ${unsafe.join(', ')}`] : [];
    if (!agents.length) return { kind: 'already', notes };
    const where = state.org.exists ? state.org.file : `${state.org.file} (new)`;
    return {
      kind: 'change',
      notes,
      changes: [`${where}: agents += ${agents.map((a) => a.id).join(', ')}`],
      apply: () => addOrgAgents(state.org, agents),
    };
  },
};

/** Org chart agents the gateway lacks are listed, and added to the gateway's agents when confirmed. */
export const gatewayFromOrgStep: Step = {
  name: 'gateway agents',
  plan(state) {
    if (state.org.problem) return skipInvalidOrg(state);
    const roster = new Set(readRoster(state.config).ids);
    const raw = (state.org.raw.agents ?? []) as Array<Record<string, unknown>>;
    const missing = toGatewayAgentIds(state.org).filter((id) => !roster.has(id));
    const notes: string[] = [];
    if (!missing.length && needsOwnership(state.config)) {
      return {
        kind: 'change',
        notes,
        changes: ['agents.ownership = "explicit" (several agents, no owner named)'],
        apply: () => void notes.push(...settleOwnership(state.config, [...roster])),
      };
    }
    if (!missing.length) return { kind: 'already' };
    const agents = missing.map((id) => ({ id, name: String(raw.find((agent) => agent.id === id)?.name ?? id) }));
    return {
      kind: 'change',
      notes,
      changes: [`agents.entries += ${missing.join(', ')} (in the org chart, not in the gateway)`],
      apply: () => void notes.push(...addGatewayAgents(state.config, agents)),
    };
  },
};

/** The companion skill (`templates/skill/svc/SKILL.md`) in the gateway's managed skills folder. */
export const skillStep: Step = {
  name: 'skill',
  async plan(state) {
    const content = readFileSync(templatePath('skill', 'svc', 'SKILL.md'), 'utf8');
    const current = await readConfigText(state.skillFile, 'the installed skill');
    if (current === content) return { kind: 'already' };
    const verb = current === null ? 'install' : 'update';
    return {
      kind: 'change',
      changes: [`${verb} ${state.skillFile}`],
      apply: () => void state.files.set(state.skillFile, { content }),
    };
  },
};

/**
 * Standalone mode's settings: the gateway token in `data/daemon.env` (0600) and `aof.daemon.gatewayUrl` in the org
 * chart.
 */
export const standaloneStep: Step = {
  name: 'standalone adapter',
  async plan(state): Promise<Plan> {
    const changes: string[] = [];
    const applies: Array<() => void> = [];
    const notes: string[] = [];
    const token = valueAt(state.config, 'gateway', 'auth', 'token');
    if (typeof token === 'string' && token && !/^\$\{.+\}$/.test(token)) {
      const current = await readConfigText(state.envFile, 'data/daemon.env');
      const next = withEnvLine(current ?? '', 'SVC_GATEWAY_TOKEN', token);
      if (next !== current) {
        changes.push(`${state.envFile}: SVC_GATEWAY_TOKEN = gateway.auth.token (mode 0600)`);
        applies.push(() => void state.files.set(state.envFile, { content: next, mode: 0o600 }));
      }
    } else {
      notes.push(
        'gateway.auth.token is not a plain string here: put the ' +
          'token in data/daemon.env as SVC_GATEWAY_TOKEN=... yourself',
      );
    }
    if (!state.org.problem && valueAt(state.org.raw, 'aof', 'daemon', 'gatewayUrl') === undefined) {
      const url = `http://127.0.0.1:${toPort(state.config)}`;
      changes.push(`${state.org.file}: aof.daemon.gatewayUrl = ${url}`);
      applies.push(() => {
        objectAt(state.org.raw, 'aof', 'daemon').gatewayUrl = url;
        state.org.changed = true;
      });
    }
    if (!changes.length) return notes.length ? { kind: 'skip', why: notes[0]! } : { kind: 'already' };
    return { kind: 'change', changes, notes, apply: () => applies.forEach((apply) => apply()) };
  },
};

// --- internal ---

function skipInvalidOrg(state: InitState): Plan {
  return {
    kind: 'skip',
    why: `the org chart is invalid (${state.org.problem}); fix it (\`svc org validate\`) and run svc init again`,
  };
}

/** The env file with `KEY=value` set: the existing line replaced, or appended; other lines kept. */
function withEnvLine(text: string, key: string, value: string): string {
  const line = `${key}=${value}`;
  const lines = text.split('\n').filter((item, i, all) => item !== '' || i < all.length - 1);
  const at = lines.findIndex((item) => new RegExp(`^\\s*${key}\\s*=`).test(item));
  if (at >= 0) lines[at] = line;
  else lines.push(line);
  return `${lines.join('\n')}\n`;
}

/** The gateway's port: `gateway.port`, else OpenClaw's default 18789. */
function toPort(config: Record<string, unknown>): number {
  const port = valueAt(config, 'gateway', 'port');
  return typeof port === 'number' && Number.isInteger(port) ? port : 18789;
}
