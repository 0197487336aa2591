import { PLUGIN_ID } from './gateway-steps.js';
import { MCP_SERVER } from './mcp-step.js';
import { toTerminalText } from '../../core/text.js';
import { readRoster } from './roster.js';
import { valueAt } from './step.js';

/** The type a section of the gateway config must have for `svc init` to write into it. */
type SectionType = 'an object' | 'an array';

/**
 * Every section of the gateway config that `svc init` may write into, with the type it needs, and
 * each of them found with another type (a missing one is fine: it is created), as
 * `path: expected …, found …` lines. Without `--force` these are refused rather than replaced.
 */
export function findWrongTypes(config: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const [path, type] of toSections(config)) {
    const value = valueAt(config, ...path);
    if (value === undefined || typeOf(value) === type) continue;
    problems.push(`${path.join('.')}: expected ${type}, found ${describe(value)}`);
  }
  return problems;
}

/**
 * The agent ids of the gateway config that hold control characters (an escape sequence would
 * recolour or rewrite the terminal wherever the id is shown), escaped for the message.
 */
export function findHostileIds(config: Record<string, unknown>): string[] {
  return readRoster(config)
    .ids.filter((id) => toTerminalText(id) !== id)
    .map((id) => `"${toTerminalText(id)}"`);
}

// --- internal ---

const SVC_ENTRY = ['plugins', 'entries', PLUGIN_ID];

const FIXED: Array<[string[], SectionType]> = [
  [['plugins'], 'an object'],
  [['plugins', 'load'], 'an object'],
  [['plugins', 'load', 'paths'], 'an array'],
  [['plugins', 'entries'], 'an object'],
  [SVC_ENTRY, 'an object'],
  [[...SVC_ENTRY, 'config'], 'an object'],
  [[...SVC_ENTRY, 'hooks'], 'an object'],
  [[...SVC_ENTRY, 'config', 'modules'], 'an object'],
  [[...SVC_ENTRY, 'config', 'modules', 'memory'], 'an object'],
  [['gateway'], 'an object'],
  [['gateway', 'tools'], 'an object'],
  [['gateway', 'tools', 'allow'], 'an array'],
  [['agents'], 'an object'],
  [['agents', 'entries'], 'an object'],
  [['agents', 'defaults'], 'an object'],
  [['agents', 'defaults', 'systemAgent'], 'an object'],
  [['mcp'], 'an object'],
  [['mcp', 'servers'], 'an object'],
  [['mcp', 'servers', MCP_SERVER], 'an object'],
];

/** The fixed sections, and each agent entry with its `subagents.allowAgents`. */
function toSections(config: Record<string, unknown>): Array<[string[], SectionType]> {
  const sections = [...FIXED];
  const entries = valueAt(config, 'agents', 'entries');
  if (typeOf(entries) === 'an object') {
    for (const id of Object.keys(entries as object)) {
      const at = ['agents', 'entries', id];
      sections.push(
        [at, 'an object'],
        [[...at, 'subagents'], 'an object'],
        [[...at, 'subagents', 'allowAgents'], 'an array'],
      );
    }
  }
  return sections;
}

function typeOf(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  return value !== null && typeof value === 'object' ? 'an object' : 'other';
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string')
    return `a string (${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)})`;
  return typeof value === 'object' ? 'an object' : `a ${typeof value} (${String(value)})`;
}
