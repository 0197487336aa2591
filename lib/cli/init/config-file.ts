import { constants } from 'node:fs';
import { copyFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { SvcError } from '../../core/errors.js';
import { writeDurable } from '../../fs/atomic.js';
import { readFollowedFile } from '../../fs/followed-file.js';
import { parseJson5, stringifyJson5 } from '../../fs/json5.js';

/** The gateway config as read: its path, its value (a draft the steps change), how it was written. */
export interface GatewayConfigFile {
  path: string;
  original: string;
  config: Record<string, unknown>;
  hasComments: boolean;
  isPlainJson: boolean;
}

/** The gateway config path: `--config`, else `OPENCLAW_CONFIG_PATH`, else `~/.openclaw/openclaw.json`. */
export function toGatewayConfigPath(option: string | undefined, env: Record<string, string | undefined>): string {
  if (option) return resolve(option);
  if (env.OPENCLAW_CONFIG_PATH?.trim()) return resolve(expandHome(env.OPENCLAW_CONFIG_PATH.trim(), env));
  return join(toHome(env), '.openclaw', 'openclaw.json');
}

/** The gateway's state folder (its managed `skills/` live there): `OPENCLAW_STATE_DIR`, else `~/.openclaw`. */
export function toGatewayStateDir(env: Record<string, string | undefined>): string {
  const dir = env.OPENCLAW_STATE_DIR?.trim();
  return dir ? resolve(expandHome(dir, env)) : join(toHome(env), '.openclaw');
}

/** `~` and `~/x` as the gateway reads them (paths in its config may start with `~`). */
export function expandHome(path: string, env: Record<string, string | undefined>): string {
  if (path === '~') return toHome(env);
  return path.startsWith('~/') ? join(toHome(env), path.slice(2)) : path;
}

/** The largest gateway config or org chart `svc init` reads. */
export const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

/**
 * Reads and parses the gateway config: a regular file (a symlink to one is followed) of at most
 * `MAX_CONFIG_BYTES`, nested at most `MAX_JSON5_DEPTH` deep. A missing, special, oversized or
 * malformed file is an error, and nothing is written.
 */
export async function readGatewayConfig(path: string): Promise<GatewayConfigFile> {
  const original = await readConfigText(path, 'the gateway config');
  if (original === null)
    throw new SvcError(
      'not_found',
      `No gateway config at ${path}.`,
      'Set up the gateway first (`openclaw setup`), or pass the config ' +
        'with `svc init --config <path>` or OPENCLAW_CONFIG_PATH.',
    );
  const doc = parseJson5(original, path);
  if (doc.value === null || typeof doc.value !== 'object' || Array.isArray(doc.value)) {
    throw new SvcError(
      'validation_error',
      `${path}: the gateway config is not an object.`,
      'The file must hold one JSON5 object ({ ... }); nothing was changed.',
    );
  }
  return {
    path,
    original,
    config: doc.value as Record<string, unknown>,
    hasComments: doc.hasComments,
    isPlainJson: doc.isPlainJson,
  };
}

/** Copies `path` to `<path>.<stamp>.bak` (never over an existing file) and returns the copy's path. */
export async function backupFile(path: string, now: Date): Promise<string> {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  for (let n = 0; ; n++) {
    const backup = `${path}.${stamp}${n ? `-${n}` : ''}.bak`;
    try {
      await copyFile(path, backup, constants.COPYFILE_EXCL);
      return backup;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}

/** Writes the changed config atomically (temporary file, fsync, rename), in the format it was read in. */
export async function writeGatewayConfig(file: GatewayConfigFile): Promise<void> {
  await writeDurable(file.path, stringifyJson5(file.config, { plainJson: file.isPlainJson }));
}

/** The text of a file `svc init` reads (see `readGatewayConfig`), or null when there is none. */
export async function readConfigText(path: string, what: string): Promise<string | null> {
  try {
    return await readFollowedFile(path, MAX_CONFIG_BYTES, what);
  } catch (err) {
    if (err instanceof SvcError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    throw new SvcError('unavailable', `${path}: ${what} cannot be read (${code ?? (err as Error).message}).`, {
      hint: `Check that ${what} is a readable file; nothing was written.`,
      cause: err,
    });
  }
}

// --- internal ---

function toHome(env: Record<string, string | undefined>): string {
  return env.HOME?.trim() ? resolve(env.HOME) : homedir();
}
