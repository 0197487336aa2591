import { isDeepStrictEqual } from 'node:util';
import { SvcError } from '../core/errors.js';
import { dumpYaml, parseYaml } from '../fs/frontmatter.js';
import { asRecord } from './problems.js';

/** The text of a new org chart, before its first agent. */
export const EMPTY_CHART = 'schemaVersion: 1\n';

/**
 * The org chart's text with `agent` appended to its `agents` list, every other line (comments, blank lines, flow
 * style, key order) as it was. The result is read back and must equal the chart with the agent added; a list written
 * in a form this edit does not handle (a flow list with items) is refused with the lines to add by hand.
 */
export function appendAgentText(text: string, agent: Record<string, unknown>, source: string): string {
  const before = asRecord(parseYaml(text, source) ?? {});
  if (!before) throw new SvcError('validation_error', `${source}: the org chart is not a mapping of settings.`);
  const lines = text.split('\n');
  const next = insertItem(lines, agent);
  const expected = { ...before, agents: [...(Array.isArray(before.agents) ? before.agents : []), agent] };
  if (next !== null && isDeepStrictEqual(parseYaml(next, source), expected)) return next;
  throw new SvcError(
    'validation_error',
    `${source}: its agents list is written in a form svc does not edit without changing the rest of the file.`,
    `Add the agent to the agents list yourself:\n${toItemLines(agent, 2).join('\n')}`,
  );
}

// --- internal ---

/** The top-level `agents:` key: the rest of its line (a value, a comment or nothing). */
const AGENTS_KEY = /^agents\s*:(.*)$/;

function insertItem(lines: string[], agent: Record<string, unknown>): string | null {
  const at = lines.findIndex((line) => AGENTS_KEY.test(line));
  if (at < 0) return appendList(lines, agent);
  const rest = AGENTS_KEY.exec(lines[at]!)![1]!.trim();
  const comment = /^(?:\[\s*\]\s*)?(#.*)?$/.exec(rest);
  if (!comment) return null; // a flow list with items, an alias, a scalar
  if (rest.startsWith('[')) {
    // `agents: []` becomes a block list
    const kept = [...lines];
    kept[at] = `agents:${comment[1] ? ` ${comment[1]}` : ''}`;
    kept.splice(at + 1, 0, ...toItemLines(agent, 2));
    return kept.join('\n');
  }
  const { last, indent } = scanBlock(lines, at);
  const kept = [...lines];
  kept.splice(last + 1, 0, ...toItemLines(agent, indent));
  return kept.join('\n');
}

/** No `agents` key: a list at the end of the file. */
function appendList(lines: string[], agent: Record<string, unknown>): string {
  const body = lines.join('\n');
  const sep = body === '' || body.endsWith('\n') ? '' : '\n';
  return `${body}${sep}agents:\n${toItemLines(agent, 2).join('\n')}\n`;
}

/**
 * The block list under `agents:` at line `at`: the index of its last line of content (an indented comment of its
 * last item included; a comment at the margin belongs to what follows), and the indent of its `- ` items.
 */
function scanBlock(lines: string[], at: number): { last: number; indent: number } {
  let last = at;
  let indent: number | undefined;
  for (let i = at + 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '' || line.startsWith('#')) continue;
    const item = /^(\s*)- /.exec(line) ?? /^(\s*)-$/.exec(line);
    if (indent === undefined && item) indent = item[1]!.length;
    const own = line.length - line.trimStart().length;
    if (own === 0 && !(indent === 0 && line.startsWith('-'))) break;
    last = i;
  }
  return { last, indent: indent ?? 2 };
}

/** The agent as a block list item, indented. */
function toItemLines(agent: Record<string, unknown>, indent: number): string[] {
  const pad = ' '.repeat(indent);
  return dumpYaml([agent])
    .trimEnd()
    .split('\n')
    .map((line) => `${pad}${line}`);
}
