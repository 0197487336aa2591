import { readFileSync } from 'node:fs';

/**
 * The `KEY=value` lines of an env file such as `data/daemon.env` (the file a service unit reads),
 * one pair of quotes around a value removed; other lines skipped. A file that cannot be read is empty.
 */
export function readEnvFile(file: string): Record<string, string> {
  try {
    const out: Record<string, string> = {};
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const match = /^\s*([A-Z_][A-Z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
      if (match) out[match[1]!] = match[2]!.replace(/^(['"])(.*)\1$/, '$2');
    }
    return out;
  } catch {
    return {};
  }
}
