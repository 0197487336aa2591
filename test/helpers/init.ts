import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import JSON5 from 'json5';
import { main } from '../../lib/cli/main.js';
import { tempRoot } from './root.js';

/** A gateway home (config, state) and an svc root, all under one temp folder. */
export interface InitWorld {
  dir: string;
  root: string;
  home: string;
  config: string;
  state: string;
  env: Record<string, string>;
}

/** Makes a temp world with `configText` as the gateway config (none when null) and an optional org chart. */
export function makeWorld(configText: string | null, orgChart?: string): InitWorld {
  const dir = tempRoot('svc-init-');
  const home = join(dir, 'home');
  const state = join(home, '.openclaw');
  const root = join(dir, 'svc');
  mkdirSync(state, { recursive: true });
  const config = join(state, 'openclaw.json');
  if (configText !== null) writeFileSync(config, configText);
  if (orgChart !== undefined) {
    mkdirSync(join(root, 'org'), { recursive: true });
    writeFileSync(join(root, 'org', 'org-chart.yaml'), orgChart);
  }
  return { dir, root, home, config, state, env: { SVC_HOME: root, HOME: home, OPENCLAW_STATE_DIR: state } };
}

/** Runs `svc init ...` in-process in the world. */
export async function init(
  world: InitWorld,
  ...argv: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(['init', ...argv], {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    env: world.env,
  });
  return { code, stdout, stderr };
}

/** Every file under the world with its bytes and mode: two snapshots are equal when nothing was written. */
export function snapshot(world: InitWorld): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const stat = statSync(path);
      if (stat.isDirectory()) walk(path);
      else out[relative(world.dir, path)] = `${(stat.mode & 0o777).toString(8)} ${readFileSync(path, 'utf8')}`;
    }
  };
  walk(world.dir);
  return out;
}

/** The gateway config as the gateway would read it. */
export function readConfig(world: InitWorld): Record<string, any> {
  return JSON5.parse(readFileSync(world.config, 'utf8'));
}

/** A gateway config with a token, one agent and comments, as a user writes it. */
export const COMMENTED_CONFIG = `// my gateway
{
  gateway: { mode: "local", port: 18790, auth: { mode: "token", token: "tok-123" } }, // local only
  /* the one agent */
  agents: { entries: { main: { name: "Main" } } },
}
`;
