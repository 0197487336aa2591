import { createRequire } from 'node:module';
import { SvcError } from '../core/errors.js';
import { parseYamlSubset } from './yaml-subset.js';
import { toYaml } from './yaml-write.js';

// js-yaml's CommonJS build, not its ES module build: the latter builds each parser's state with
// object spread, which on Node 20 keeps every parse's garbage alive past two young collections
// (about 3.5 MB promoted to the old generation per collection where the CommonJS build promotes
// none): a 10,000-file listing then peaks about 40 MB higher and takes nearly twice the CPU
// (bench/README.md, "Memory"). esbuild leaves this require alone: the bundle loads js-yaml from node_modules.
const { CORE_SCHEMA, dump, load } = createRequire(import.meta.url)('js-yaml') as typeof import('js-yaml');

/** Largest frontmatter block parsed. */
export const MAX_FRONTMATTER_BYTES = 64 * 1024;
/** Largest task file read. */
export const MAX_FILE_BYTES = 1024 * 1024;

/** A parsed Markdown file with frontmatter. */
export interface ParsedFile {
  data: Record<string, unknown>;
  body: string;
}

/**
 * Parses frontmatter and body. Hardened for files written by anyone: nothing cached between
 * calls, `---js` blocks refused (never evaluated), YAML with the core schema (timestamps stay
 * strings), no aliases, bounded depth and size. A leading byte-order mark is skipped.
 */
export function parseFrontmatter(input: string, source: string): ParsedFile {
  // a byte-order mark, as some editors write, is not content
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  if (Buffer.byteLength(text) > MAX_FILE_BYTES) {
    throw new SvcError(
      'too_large',
      `${source}: file is larger than ${MAX_FILE_BYTES} bytes.`,
      'Move large material out of the task file.',
    );
  }
  if (!/^---[^\S\r\n]*(yaml|yml)?[^\S\r\n]*\r?\n/.test(text)) {
    const lang = /^---\s*(\S+)/.exec(text)?.[1];
    const problem = lang
      ? `frontmatter language "${lang}" is not allowed (only YAML)`
      : 'no YAML frontmatter (the file must start with a --- line)';
    throw new SvcError(
      'validation_error',
      `${source}: ${problem}.`,
      'Start the file with ---, the YAML fields, and a closing --- line.',
    );
  }
  const { matter, content } = splitFrontmatter(text);
  let data: unknown;
  try {
    data = matter.replace(/^\s*#[^\n]+/gm, '').trim() === '' ? {} : loadYaml(matter);
  } catch (err) {
    if (err instanceof SvcError)
      throw new SvcError(err.code, `${source}: ${err.message}.`, { hint: err.hint, cause: err });
    const reason = err instanceof Error ? err.message.split('\n')[0] : String(err);
    throw new SvcError('validation_error', `${source}: malformed YAML frontmatter: ${reason}`, {
      hint: 'Fix the YAML between the --- lines.',
      cause: err,
    });
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new SvcError(
      'validation_error',
      `${source}: frontmatter is not a mapping of fields.`,
      'Write the frontmatter as `key: value` lines.',
    );
  }
  return { data: { ...(data as Record<string, unknown>) }, body: content.replace(/^\r?\n/, '') };
}

/**
 * Serializes frontmatter (keys in the given order) and body into a Markdown file. The frontmatter is written by
 * `toYaml` (fs/yaml-write.ts), which writes only what `parseFrontmatter` reads back equal, or throws
 * `validation_error` naming the value it cannot write.
 */
export function stringifyFrontmatter(data: Record<string, unknown>, body: string): string {
  const yaml = toYaml(data);
  const text = body.length === 0 || body.endsWith('\n') ? body : `${body}\n`;
  return `---\n${yaml}---\n${text.length ? `\n${text}` : ''}`;
}

/** Parses a YAML document with the hardened options (for the org chart and workflows too). */
export function parseYaml(text: string, source: string): unknown {
  try {
    return loadYaml(text);
  } catch (err) {
    const reason = err instanceof Error ? err.message.split('\n')[0] : String(err);
    throw new SvcError('validation_error', `${source}: malformed YAML: ${reason}`, {
      hint: 'Fix the YAML syntax at the position given.',
      cause: err,
    });
  }
}

/** Serializes a value as block YAML. */
export function dumpYaml(value: unknown): string {
  return dump(value, { noRefs: true, lineWidth: -1 });
}

// --- internal ---

function loadYaml(text: string): unknown {
  if (Buffer.byteLength(text) > MAX_FRONTMATTER_BYTES) {
    throw new SvcError(
      'too_large',
      `frontmatter is larger than ${MAX_FRONTMATTER_BYTES} bytes`,
      'Keep the frontmatter small; long text belongs in the body.',
    );
  }
  if (!text.trim()) return {};
  // the frontmatter svc writes, read as js-yaml would read it, without js-yaml's parser (fs/yaml-subset.ts)
  return parseYamlSubset(text) ?? load(text, { schema: CORE_SCHEMA, maxAliases: 0, maxDepth: 32 });
}

/**
 * Splits a file that starts with a `---` line into the frontmatter and what follows the closing
 * `---` (the rules gray-matter applied before: the first line starting with `---` after the
 * opening one closes the block; without one, the whole rest is frontmatter and the body is empty).
 */
function splitFrontmatter(text: string): { matter: string; content: string } {
  let rest = text.slice(3);
  const language = rest.slice(0, rest.search(/\r?\n/));
  if (language.trim()) rest = rest.slice(language.length);
  const close = rest.indexOf('\n---');
  if (close === -1) return { matter: rest, content: '' };
  let content = rest.slice(close + 4);
  if (content.startsWith('\r')) content = content.slice(1);
  if (content.startsWith('\n')) content = content.slice(1);
  return { matter: rest.slice(0, close), content };
}
