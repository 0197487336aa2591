/**
 * A fast reader for the YAML that svc writes in a task's frontmatter, and nothing more: `key: value`
 * lines, block mappings nested a few levels and sequences of scalars, `{}` and `[]`, single-quoted
 * strings, and plain scalars of a few safe characters resolved as js-yaml's core schema resolves
 * them (null, booleans, small decimal integers, strings). Whatever else the text holds (double
 * quotes, flow collections, comments, anchors, tabs, deeper nesting, a number written another way,
 * a repeated key) gives null, and the caller parses with js-yaml; so for a text it accepts it
 * returns exactly what js-yaml returns (test/fs/yaml-subset.test.ts compares the two). A listing
 * reads thousands of files: js-yaml's parser was most of the time it took.
 */
export function parseYamlSubset(text: string): Record<string, unknown> | null {
  if (
    /[^\x20-\x7e\n]/.test(text) ||
    /["#&*!%@`|>{}[\]\\]/.test(text.replaceAll('{}', '').replaceAll('[]', '').replace(QUOTED_G, "''"))
  )
    return null;
  const lines = text.split('\n').filter((line) => line !== '');
  if (!lines.length) return null;
  const at = { line: 0 };
  const value = toMapping({ lines, at }, 0, 0);
  return value === NOT_SUBSET || at.line < lines.length ? null : (value as Record<string, unknown>);
}

// --- internal ---

const NOT_SUBSET = Symbol('not in the subset');
/** A key, then `: value` or `:` at the end of the line. */
const LINE = /^([A-Za-z][A-Za-z0-9_]*):(?: (.*\S))?$/;
/** Keys that YAML reads as null or a boolean (js-yaml then names the field `null`, `true` or `false`). */
const NOT_STRING_KEYS = new Set(['null', 'Null', 'NULL', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE']);
/** A single-quoted scalar as a whole value ('' is a quote inside). */
const QUOTED = /^'((?:[^'\n]|'')*)'$/;
const QUOTED_G = /'(?:[^'\n]|'')*'/g;
/** A plain scalar that starts with a letter and holds no character with a meaning in YAML. */
const PLAIN = /^[A-Za-z][A-Za-z0-9 _./()+=,;?$^~-]*$/;

function toScalar(text: string): unknown {
  if (text === '{}') return {};
  if (text === '[]') return [];
  const quoted = QUOTED.exec(text);
  if (quoted) return quoted[1]!.replaceAll("''", "'");
  if (/^(0|-?[1-9][0-9]{0,14})$/.test(text)) return Number(text);
  if (!PLAIN.test(text) || text.endsWith(' ')) return NOT_SUBSET;
  if (text === 'null' || text === 'Null' || text === 'NULL') return null;
  if (text === 'true' || text === 'True' || text === 'TRUE') return true;
  if (text === 'false' || text === 'False' || text === 'FALSE') return false;
  return text;
}

/** How deep blocks may nest (a task's frontmatter nests two levels: routing.tags). */
const MAX_DEPTH = 4;

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/** The lines read and the one read next. */
interface Doc {
  /** The text's lines, empty ones left out. */
  lines: readonly string[];
  /** The index of the line read next, advanced as lines are read. */
  at: { line: number };
}

/**
 * `key: value` lines at `indent` from `at.line` on; a `key:` line opens a block indented deeper on the next line (else
 * it is null).
 */
function toMapping(doc: Doc, indent: number, depth: number): unknown {
  const { lines, at } = doc;
  const out: Record<string, unknown> = {};
  while (at.line < lines.length && indentOf(lines[at.line]!) >= indent) {
    const line = lines[at.line]!;
    if (indentOf(line) !== indent) return NOT_SUBSET;
    const entry = LINE.exec(line.slice(indent));
    if (!entry || Object.hasOwn(out, entry[1]!) || NOT_STRING_KEYS.has(entry[1]!)) return NOT_SUBSET;
    at.line++;
    const value = entry[2] !== undefined ? toScalar(entry[2]) : toBlock(doc, indent, depth);
    if (value === NOT_SUBSET) return NOT_SUBSET;
    out[entry[1]!] = value;
  }
  return out;
}

/**
 * The block under a `key:` line: a mapping or a sequence of scalars indented deeper than the key; null when none
 * follows.
 */
function toBlock(doc: Doc, parent: number, depth: number): unknown {
  const { lines, at } = doc;
  const next = lines[at.line];
  if (next === undefined || indentOf(next) <= parent)
    return next !== undefined && next.startsWith('-', parent) ? NOT_SUBSET : null;
  if (depth + 1 >= MAX_DEPTH) return NOT_SUBSET;
  const indent = indentOf(next);
  if (!next.startsWith('-', indent)) return toMapping(doc, indent, depth + 1);
  const items: unknown[] = [];
  while (at.line < lines.length && indentOf(lines[at.line]!) >= indent) {
    const line = lines[at.line]!;
    if (indentOf(line) !== indent || !line.startsWith('- ', indent)) return NOT_SUBSET;
    const value = toScalar(line.slice(indent + 2));
    if (value === NOT_SUBSET || (typeof value === 'object' && value !== null)) return NOT_SUBSET;
    items.push(value);
    at.line++;
  }
  return items;
}
