// Values that YAML writers and readers get wrong, and a deterministic generator of documents made of them
// (test/fs/yaml-write.test.ts).

/** Strings YAML reads in many ways: indicators, quotes, numbers, words, spaces, breaks, controls, unicode. */
export const AWKWARD = [
  '',
  ' ',
  '  ',
  ' lead',
  'trail ',
  ' both ',
  'a  b',
  'plain text',
  'a: b',
  'a:b',
  'a:',
  ':',
  ':x',
  'a #b',
  'a#b',
  '#c',
  '- x',
  '-x',
  '-',
  '--',
  '---',
  '--- x',
  '---x',
  '...',
  '? x',
  '?x',
  "it's",
  "'q'",
  '"dq"',
  'a"b',
  'a\\b',
  '\\n',
  '[a]',
  '{a: 1}',
  'a,b',
  '&anchor',
  '*alias',
  '!tag',
  '%x',
  '@x',
  '`x',
  '|',
  '>',
  '<<',
  '=',
  'null',
  'Null',
  'NULL',
  '~',
  'true',
  'False',
  'yes',
  'No',
  'on',
  'OFF',
  'y',
  'n',
  '0',
  '-0',
  '007',
  '12',
  '-12',
  '+1',
  '1_000',
  '0x1F',
  '0o17',
  '0b11',
  '1e3',
  '1.5',
  '.5',
  '1.',
  '.',
  '.inf',
  '-.Inf',
  '.nan',
  'NaN',
  'Infinity',
  '1:20',
  '12abc',
  '1,000',
  '2026-11-26',
  '2026-11-26T10:00:00.000Z',
  '2026-11-26 10:00:00',
  'v1.2.3',
  '1.2.3',
  'multi\nline',
  'ends\n',
  'ends twice\n\n',
  '\n',
  '\n\n',
  '\nstarts',
  ' lead\nnext',
  '\n lead',
  'a \nb',
  'a\n \nb',
  'a\n  ',
  'a\n\n\nb',
  'x\n---\ny',
  'x\n...\n',
  '# not\n# comments',
  'tab\there',
  '\t',
  'cr\rhere',
  'crlf\r\n',
  'nul\0',
  'bell\x07',
  'esc\x1b',
  'del\x7f',
  'nel\x85',
  'nbsp\xa0',
  '\xa0',
  'ls\u2028',
  'ps\u2029',
  '\ufeffbom',
  'bad\ufffe',
  'lone\ud800',
  'lone\udc00x',
  'é ü',
  'ñ: x',
  'emoji 😀',
  '日本語',
  'zero\u200bwidth',
  'ideographic\u3000space',
  'x'.repeat(300),
  `${'long words '.repeat(20)}end`,
];
export const KEYS = [
  'id',
  'title',
  'a b',
  'a-b',
  '1',
  '1a',
  'null',
  'y',
  '~',
  '',
  ' k',
  'k ',
  'a:b',
  'é',
  'x\ny',
  '---k',
  '#k',
];

/** A small deterministic generator (the same values on every run). */
export function random(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
}

export function pick<T>(next: () => number, items: readonly T[]): T {
  return items[Math.floor(next() * items.length)]!;
}

/** A string of random characters drawn from ASCII, controls and unicode (surrogate pairs and lone ones too). */
function toRandomString(next: () => number): string {
  const pool = [
    'a',
    'Z',
    '0',
    ' ',
    ':',
    '#',
    '-',
    "'",
    '"',
    '\\',
    '\n',
    '\t',
    '\r',
    '\0',
    'é',
    '😀',
    '\ud800',
    '\u2028',
  ];
  let out = '';
  for (let i = Math.floor(next() * 8); i > 0; i--) out += pick(next, pool);
  return out;
}

/** How many collections nest in `value`, itself counted; an empty one counts as none. */
export function toNesting(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  const items = Object.values(value);
  return items.length ? 1 + Math.max(...items.map(toNesting)) : 0;
}

export function toValue(next: () => number, depth: number): unknown {
  const kind = next();
  if (depth > 0 && kind < 0.2)
    return Object.fromEntries(
      Array.from({ length: Math.floor(next() * 4) }, (_, i) => [pick(next, KEYS) + i, toValue(next, depth - 1)]),
    );
  if (depth > 0 && kind < 0.35) return Array.from({ length: Math.floor(next() * 4) }, () => toValue(next, depth - 1));
  if (kind < 0.6) return pick(next, AWKWARD);
  if (kind < 0.7) return toRandomString(next);
  if (kind < 0.8) return pick(next, [0, -1, 7, 1.5, -2.25, 1e21, 1e-7, 2 ** 53 + 2, 123456789012345, 5e-324, -0]);
  if (kind < 0.9) return pick(next, [true, false, null]);
  return pick(next, [NaN, Infinity, -Infinity, 0.1, -1e300]);
}
