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

/** Parses JSON5 text; a syntax error is a `validation_error` naming `source:line:column`. */
export function parseJson5(text: string, source: string): Json5Document {
  let value: unknown;
  try {
    value = JSON5.parse(text);
  } catch (err) {
    const { lineNumber, columnNumber, message } = err as { lineNumber?: number; columnNumber?: number; message?: string };
    const at = lineNumber === undefined ? source : `${source}:${lineNumber}:${columnNumber ?? 0}`;
    const reason = (message ?? String(err)).replace(/^JSON5: /, '').replace(/ at \d+:\d+$/, '');
    throw new SvcError('validation_error', `${at}: malformed JSON5: ${reason}.`, 'Fix the file at that line and column; nothing was changed.', { cause: err });
  }
  return { value, hasComments: hasComments(text), isPlainJson: isPlainJson(text) };
}

/** Serializes a value as the original was written: plain JSON stays JSON, JSON5 gets JSON5 (double quotes). */
export function stringifyJson5(value: unknown, plainJson: boolean): string {
  const text = plainJson ? JSON.stringify(value, null, 2) : JSON5.stringify(value, { space: 2, quote: '"' });
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
