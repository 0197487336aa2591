// The agent CLIs for the end-to-end tests (docs/agent-runtimes.md): installed from npm once into a cache
// folder, as the OpenClaw gateway is (openclaw.ts), and found there by each test file that runs one.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { RuntimeName } from '../../lib/org/runtimes.js';
import { npmInstall, withInstallLock } from './openclaw.js';

/** The releases the tests run, pinned: Claude Code's later releases declare Node 22 (its program is a native binary). */
export const AGENT_CLI_VERSIONS: Record<RuntimeName, string> = {
  'claude-code': '2.1.332',
  codex: '0.171.0',
  gemini: '0.61.0',
};

const PACKAGES: Record<RuntimeName, { name: string; bin: string; flags: string[] }> = {
  'claude-code': {
    name: '@anthropic-ai/claude-code',
    bin: 'node_modules/@anthropic-ai/claude-code-linux-x64/claude',
    flags: ['--engine-strict=false', '--ignore-scripts'],
  },
  codex: { name: '@openai/codex', bin: 'node_modules/.bin/codex', flags: ['--ignore-scripts'] },
  gemini: { name: '@google/gemini-cli', bin: 'node_modules/.bin/gemini', flags: ['--ignore-scripts'] },
};

/** An installed CLI: the executable to name as an agent's `bin`, and its release. */
export interface AgentCli {
  bin: string;
  version: string;
}

const run = promisify(execFile);

/**
 * Installs one agent CLI into `$XDG_CACHE_HOME/svc-test/agent-cli-<runtime>-<version>` (else under `~/.cache`), once;
 * later runs reuse it. `log` hears about a first install (seconds to a minute; hundreds of MB).
 */
export async function ensureAgentCli(runtime: RuntimeName, log: (line: string) => void = () => {}): Promise<AgentCli> {
  const version = AGENT_CLI_VERSIONS[runtime];
  const pkg = PACKAGES[runtime];
  const dir = join(
    process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'),
    'svc-test',
    `agent-cli-${runtime}-${version}`,
  );
  const bin = join(dir, pkg.bin);
  const marker = join(dir, 'installed.json');
  if (existsSync(marker)) return { bin, version };
  mkdirSync(dir, { recursive: true });
  await withInstallLock(dir, async () => {
    if (existsSync(marker)) return;
    log(`installing ${pkg.name}@${version} into ${dir} (once)`);
    await npmInstall(dir, [`${pkg.name}@${version}`, ...pkg.flags], process.env.PATH ?? '');
    const { stdout } = await run(bin, ['--version'], { timeout: 60_000 });
    writeFileSync(marker, `${JSON.stringify({ package: pkg.name, version, reports: stdout.trim() })}\n`);
    log(`installed ${pkg.name}@${version}: ${stdout.trim()}`);
  });
  return { bin, version };
}
