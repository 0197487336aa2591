import { SvcError } from '../core/errors.js';

/**
 * How deep collections may nest in what `toYaml` writes, the document's own mapping counted as the first level. The
 * reader (js-yaml, past the few levels `yaml-subset.ts` reads) counts nodes against its limit of 32, the leaf scalar
 * included, and reads a chain of lists one level less deep than a chain of mappings: at 30 every shape reads back
 * (test/fs/yaml-write.test.ts).
 */
export const MAX_YAML_NESTING = 30;

/**
 * Writes a mapping as block YAML, the writing twin of the frontmatter reader: nothing but what the reader reads back
 * equal (test/fs/yaml-write.test.ts): strings (plain when nothing in them could be read as something else, else
 * single-quoted, a literal block when they span lines, double-quoted with escapes when they hold a tab or an
 * invisible character), finite and non-finite numbers, booleans, null, lists and mappings (empty ones as `[]` and
 * `{}`), nested at most `MAX_YAML_NESTING` levels. The layout is js-yaml's `dump` with `lineWidth: -1`, which wrote
 * the task files before. A key whose value is undefined is left out, as JSON leaves it out; anything else (a function,
 * a date, a class instance, undefined in a list, a cycle, a `__proto__` key) throws `validation_error` naming its path.
 */
export function toYaml(data: Record<string, unknown>): string {
  if (!isPlainObject(data)) throw refuse('', 'is not a mapping');
  const text = writeMapping(data, { level: 0, path: '', ancestors: new Set() }, 'same-line');
  return text === '{}' ? '{}\n' : `${text}\n`;
}

// --- internal ---

/** Where a value is written: its level (indentation is two spaces a level), its path, the collections it is in. */
/** Where a collection's first entry goes: on a line of its own, or after the `- ` of the item holding it. */
type FirstLine = 'own-line' | 'same-line';

interface At {
  level: number;
  path: string;
  ancestors: Set<object>;
}

/** Characters a plain or single-quoted scalar cannot hold, written escaped in double quotes (as js-yaml does). */
const ESCAPED = /[\x00-\x09\x0b-\x1f\x7f-\xa0\u2028\u2029\ufeff\ufffe\uffff]|\p{Cs}/u;
/**
 * A plain scalar on one line: no indicator first (`-`, `?`, `:` only before a character), no `: ` or ` #`, no space at
 * either end (YAML's white space is the ASCII space and the tab; a tab, a line break or a control is escaped before).
 */
const PLAIN = /^(?:[^ \-?:,[\]{}#&*!|>'"%@`]|[-?:](?=[^ ]))(?:[^ :]|:(?=[^ ])| +(?=[^ #]))*$/u;
/** Plain words YAML 1.1 or 1.2 reads as null, a boolean, a merge key or a value key. */
const WORDS = new Set(
  'null Null NULL ~ y Y yes Yes YES n N no No NO true True TRUE false False FALSE on On ON off Off OFF << ='.split(' '),
);
/** Plain scalars YAML 1.1 or 1.2 reads as a number or a time (the patterns of js-yaml's dump schema, joined). */
const NUMBER_LIKE = new RegExp(
  [
    '[-+]?0b[0-1_]+',
    '[-+]?0o?[0-7_]+',
    '[-+]?0x[0-9a-fA-F_]+',
    '[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\\.[0-9_]*)?',
    '[-+]?[0-9][0-9_]*',
    '[-+]?(?:[0-9][0-9_]*)?\\.[0-9_]*(?:[eE][-+]?[0-9]+)?',
    '[-+]?[0-9]+(?:\\.[0-9]*)?(?:[eE][-+]?[0-9]+)?',
    '[-+]?\\.(?:inf|Inf|INF)',
    '\\.(?:nan|NaN|NAN)',
    '[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:(?:[Tt]|[ \\t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]*)?' +
      '(?:[ \\t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)?',
  ]
    .map((pattern) => `(?:${pattern})`)
    .join('|')
    .replace(/^/, '^(?:')
    .concat(')$'),
);

function writeValue(value: unknown, at: At): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return writeString(value, { level: at.level, key: false });
    case 'boolean':
      return String(value);
    case 'number':
      return writeNumber(value);
    case 'object':
      if (Array.isArray(value)) return writeSequence(value, at, 'own-line');
      if (isPlainObject(value)) return writeMapping(value, at, 'own-line');
      throw refuse(at.path, `is ${describe(value)}, not a plain mapping`);
    default:
      throw refuse(at.path, `is ${typeof value === 'undefined' ? 'undefined' : `a ${typeof value}`}`);
  }
}

/** A mapping: `{}` when empty, else one `key: value` line a key; the first on the current line when `same-line`. */
function writeMapping(map: Record<string, unknown>, at: At, first: FirstLine): string {
  const compact = first === 'same-line';
  const keys = Object.keys(map).filter((key) => map[key] !== undefined);
  if (!keys.length) return '{}';
  const inner = enter(map, at);
  let out = '';
  for (const key of keys) {
    const path = at.path ? `${at.path}.${key}` : key;
    if (key === '__proto__') throw refuse(path, 'is a key JavaScript objects cannot keep (it would be dropped)');
    const value = writeValue(map[key], { ...inner, path });
    out += `${compact && !out ? '' : `\n${pad(at.level)}`}${writeKey(key, at.level)}:${
      value.startsWith('\n') ? '' : ' '
    }${value}`;
  }
  at.ancestors.delete(map);
  return out;
}

/** A sequence: `[]` when empty, else one `- item` line an item; the first on the current line when `same-line`. */
function writeSequence(list: readonly unknown[], at: At, first: FirstLine): string {
  const compact = first === 'same-line';
  if (!list.length) return '[]';
  const inner = enter(list, at);
  let out = '';
  for (let i = 0; i < list.length; i++) {
    const path = `${at.path}.${i}`;
    if (!(i in list) || list[i] === undefined) throw refuse(path, 'is undefined (a list item must be a value)');
    const item = list[i];
    const next = { ...inner, path };
    const text = Array.isArray(item)
      ? writeSequence(item, next, 'same-line')
      : isPlainObject(item)
        ? writeMapping(item, next, 'same-line')
        : writeValue(item, next);
    out += `${compact && !out ? '' : `\n${pad(at.level)}`}-${text.startsWith('\n') ? '' : ' '}${text}`;
  }
  at.ancestors.delete(list);
  return out;
}

/** The position inside a collection about to be written; refuses a cycle and a nesting past the limit. */
function enter(collection: object, at: At): At {
  if (at.ancestors.has(collection)) throw refuse(at.path, 'contains itself (a cycle)');
  if (at.level + 1 > MAX_YAML_NESTING)
    throw refuse(at.path, `is nested deeper than ${MAX_YAML_NESTING} levels (the nesting limit of what reads back)`);
  at.ancestors.add(collection);
  return { level: at.level + 1, path: at.path, ancestors: at.ancestors };
}

function writeKey(key: string, level: number): string {
  // a key at the start of a line must not be read as the `---` that closes the frontmatter
  if (level === 0 && /^(?:---|\.\.\.)/.test(key)) return singleQuoted(key);
  return writeString(key, { level, key: true });
}

/**
 * A string in the first style that holds it, in js-yaml's order: double-quoted, literal block, plain,
 * single-quoted.
 */
function writeString(text: string, { level, key }: { level: number; key: boolean }): string {
  if (ESCAPED.test(text) || /^\s+$/.test(text)) return doubleQuoted(text);
  // a literal block keeping two final line breaks (`|+`) would lose one as the last value before the closing `---`
  if (text.includes('\n')) return key || text.endsWith('\n\n') ? doubleQuoted(text) : literalBlock(text, level);
  if (PLAIN.test(text) && !WORDS.has(text) && !NUMBER_LIKE.test(text)) return text;
  return singleQuoted(text);
}

function singleQuoted(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

const ESCAPES: Record<string, string> = {
  '\0': '\\0',
  '\x07': '\\a',
  '\b': '\\b',
  '\t': '\\t',
  '\n': '\\n',
  '\v': '\\v',
  '\f': '\\f',
  '\r': '\\r',
  '\x1b': '\\e',
  '"': '\\"',
  '\\': '\\\\',
  '\x85': '\\N',
  '\xa0': '\\_',
  '\u2028': '\\L',
  '\u2029': '\\P',
};

function doubleQuoted(text: string): string {
  return `"${text.replace(/["\\\x00-\x1f\x7f-\xa0\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]/gu, (char) => {
    const known = ESCAPES[char];
    if (known) return known;
    const code = char.charCodeAt(0);
    return code <= 0xff ? `\\x${hex(code, 2)}` : `\\u${hex(code, 4)}`;
  })}"`;
}

/**
 * A string of several lines as a literal block (`|`), its lines indented one level deeper than `level`'s: `-` when
 * it does not end with a line break, the indentation given (`|2`) when its first line starts with a space.
 */
function literalBlock(text: string, level: number): string {
  const indent = pad(Math.max(1, level));
  const lead = /^\n* /.test(text) ? '2' : '';
  const chomp = text.endsWith('\n') ? '' : '-';
  const lines = (chomp ? text : text.slice(0, -1)).split('\n');
  return `|${lead}${chomp}${lines.map((line) => (line ? `\n${indent}${line}` : '\n')).join('')}`;
}

function writeNumber(value: number): string {
  if (Number.isNaN(value)) return '.nan';
  if (!Number.isFinite(value)) return value > 0 ? '.inf' : '-.inf';
  if (Object.is(value, -0)) return '-0.0';
  const text = String(value);
  // `1e+21` reads as a float in YAML 1.2 only; `1.e+21` in 1.1 too (as js-yaml wrote it)
  return /e/.test(text) && !text.includes('.') ? text.replace('e', '.e') : text;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function describe(value: object): string {
  const name = (Object.getPrototypeOf(value) as { constructor?: { name?: string } } | null)?.constructor?.name;
  return name ? `a ${name}` : 'an object';
}

function pad(level: number): string {
  return '  '.repeat(level);
}

function hex(code: number, width: number): string {
  return code.toString(16).toUpperCase().padStart(width, '0');
}

function refuse(path: string, problem: string): SvcError {
  return new SvcError(
    'validation_error',
    `\`${path || '(root)'}\` ${problem}`,
    'Use plain strings, numbers, booleans, lists and mappings; nothing was written.',
  );
}
