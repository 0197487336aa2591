/** "a string", "an integer": the expected kind of a value, with its article, for a validator's message. */
export function article(expected: string): string {
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

/** A found value in plain words for a validator's message: `null`, `a list`, `a mapping`, `string "x"`. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return `${typeof value} ${JSON.stringify(value)}`;
}
