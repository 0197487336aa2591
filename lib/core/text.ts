/**
 * Makes text from a task (a title, an actor, a body) safe to print on a terminal: control
 * characters (C0 but the newlines and tabs that `multiline` keeps, DEL, C1: escape sequences
 * could recolour, retitle or rewrite the screen), bidirectional overrides and isolates (which
 * reorder what is shown), and line and paragraph separators become visible escapes such as
 * `\x1b` or `\u202e`. Everything else is left as it is.
 */
export function toTerminalText(text: string, options: { multiline?: boolean } = {}): string {
  const unsafe = options.multiline ? UNSAFE_MULTILINE : UNSAFE;
  return text.replace(unsafe, toEscape);
}

/**
 * Text as svc stores it (a title, a body, a check's output): a NUL, which no environment
 * variable, argument or C string can carry and which would break every later dispatch of the
 * task, becomes the visible escape `\x00`. Everything else is kept as it is.
 */
export function toStorableText(text: string): string {
  return text.includes('\0') ? text.replaceAll('\0', '\\x00') : text;
}

/**
 * A multi-line message on one line (a log line, a doctor line): a line ending in `:` runs into the
 * next (`invalid task frontmatter (1 problem): schemaVersion is missing`), other lines are joined
 * with `; `.
 */
export function toOneLine(message: string): string {
  return message
    .trim()
    .replace(/:\s*\n\s*/g, ': ')
    .replace(/\s*\n\s*/g, '; ');
}

// --- internal ---

const RANGES =
  '\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069';
const UNSAFE_MULTILINE = new RegExp(`[${RANGES}]`, 'g');
const UNSAFE = new RegExp(`[${RANGES}\\n\\t]`, 'g');

const NAMED: Record<string, string> = { '\n': '\\n', '\t': '\\t', '\r': '\\r' };

function toEscape(char: string): string {
  const named = NAMED[char];
  if (named) return named;
  const code = char.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}
