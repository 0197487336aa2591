import JSON5 from 'json5';
import { SvcError } from '../core/errors.js';

/** A JSON5 document: its value, and what a rewrite would lose. */
export interface Json5Document {
  value: unknown;
  /** True when the text has `//` or block comments (a rewrite drops them). */
  hasComments: boolean;
  /** True when the text is plain JSON (a rewrite keeps it plain JSON). */
  isPlainJson: boolean;
}

/** The deepest nesting of objects and arrays read; deeper text is refused before it is parsed (the parser recurses). */
export const MAX_JSON5_DEPTH = 100;

/**
 * Parses JSON5 text; a syntax error is a `validation_error` naming `source:line:column`, and so is
 * nesting deeper than `MAX_JSON5_DEPTH`.
 */
export function parseJson5(text: string, source: string): Json5Document {
  const deep = findTooDeep(text, MAX_JSON5_DEPTH);
  if (deep) {
    throw new SvcError(
      'validation_error',
      `${source}:${deep.line}:${deep.column}: nested deeper than ` +
        `${MAX_JSON5_DEPTH} levels (objects and arrays), the most svc reads.`,
      'A gateway config is a few levels deep: check that this is the right file; nothing was changed.',
    );
  }
  let value: unknown;
  try {
    value = JSON5.parse(text);
  } catch (err) {
    const { lineNumber, columnNumber, message } = err as {
      lineNumber?: number;
      columnNumber?: number;
      message?: string;
    };
    const at = lineNumber === undefined ? source : `${source}:${lineNumber}:${columnNumber ?? 0}`;
    const reason = (message ?? String(err)).replace(/^JSON5: /, '').replace(/ at \d+:\d+$/, '');
    throw new SvcError('validation_error', `${at}: malformed JSON5: ${reason}.`, {
      hint: 'Fix the file at that line and column; nothing was changed.',
      cause: err,
    });
  }
  return { value, hasComments: hasComments(text), isPlainJson: isPlainJson(text) };
}

/** Serializes a value as the original was written: plain JSON stays JSON, JSON5 gets JSON5 (double quotes). */
export function stringifyJson5(value: unknown, options: { plainJson: boolean }): string {
  const text = options.plainJson ? JSON.stringify(value, null, 2) : JSON5.stringify(value, { space: 2, quote: '"' });
  return `${text}\n`;
}

// --- internal ---

function isPlainJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Where the nesting of `{` and `[` outside strings and comments first passes `max` (1-based line and column), or null.
 */
function findTooDeep(text: string, max: number): { line: number; column: number } | null {
  let depth = 0;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if (ch === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end;
    } else if (ch === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
    } else if (ch === '{' || ch === '[') {
      if (++depth > max) return toLineColumn(text, i);
    } else if (ch === '}' || ch === ']') {
      depth--;
    }
  }
  return null;
}

function toLineColumn(text: string, index: number): { line: number; column: number } {
  const before = text.slice(0, index);
  const line = before.split('\n').length;
  return { line, column: index - before.lastIndexOf('\n') };
}

/** Scans outside string literals for `//` or a block comment opener. */
function hasComments(text: string): boolean {
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if (ch === '/' && (text[i + 1] === '/' || text[i + 1] === '*')) {
      return true;
    }
  }
  return false;
}
