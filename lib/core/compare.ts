/**
 * Orders strings by code unit (ids, UTC ISO timestamps): stable across locales, and far cheaper than `localeCompare`.
 */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
