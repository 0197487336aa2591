// The plugin as a real OpenClaw gateway (installed once into a cache folder, Node 24) sees it,
// without starting the gateway: its config validator and its runtime inspection.
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { TOOLS } from '../../lib/tools/index.js';
import { ensureOpenClaw, type OpenClawInstall } from '../helpers/openclaw.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';
import { INSTALL_EXAMPLE } from './install-example.js';

const PACKAGE_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

let install: OpenClawInstall;

/** Runs `openclaw <args>` on a temp config that loads this package with `config` as svc's config. */
async function openclaw(
  config: Record<string, unknown>,
  ...args: string[]
): Promise<{ code: number; out: string; json: () => unknown }> {
  const home = tempRoot('svc-ocv-');
  const path = join(home, 'openclaw.json');
  writeFileSync(
    path,
    JSON.stringify({
      plugins: {
        load: { paths: [PACKAGE_ROOT] },
        entries: { svc: { enabled: true, hooks: { allowConversationAccess: true }, config } },
      },
    }),
  );
  const env = {
    PATH: `${join(install.node, '..')}:${process.env.PATH ?? ''}`,
    HOME: home,
    OPENCLAW_CONFIG_PATH: path,
    OPENCLAW_STATE_DIR: join(home, 'state'),
    NO_COLOR: '1',
  };
  try {
    const { stdout, stderr } = await run(install.node, [install.entry, ...args], {
      env,
      timeout: 180_000,
      maxBuffer: 32 * 1024 * 1024,
    });
    return { code: 0, out: `${stdout}\n${stderr}`, json: () => JSON.parse(stdout) };
  } catch (err) {
    const failed = err as { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof failed.code === 'number' ? failed.code : 1,
      out: `${failed.stdout ?? ''}\n${failed.stderr ?? ''}`,
      json: () => JSON.parse(failed.stdout ?? ''),
    };
  }
}

const test = suite('plugin.gateway');
test.before(async () => {
  install = await ensureOpenClaw((line) => process.stdout.write(`  (${line})\n`));
});
test.after.each(() => cleanRoots());

test('the gateway validates the installation example against the manifest schema', async () => {
  const { code, out } = await openclaw(INSTALL_EXAMPLE, 'config', 'validate', '--json');
  assert.is(code, 0, out);
});

test('the gateway refuses an unknown key in the plugin config, naming it', async () => {
  const { code, out, json } = await openclaw(
    {
      ...INSTALL_EXAMPLE,
      memory: { ...INSTALL_EXAMPLE.memory, search: { ...INSTALL_EXAMPLE.memory.search, topK: 5 } },
    },
    'config',
    'validate',
    '--json',
  );
  assert.is.not(code, 0, out);
  const report = json() as { issues: { path: string; message: string }[] };
  assert.equal(report.issues, [
    {
      path: 'plugins.entries.svc.config.memory.search',
      message: 'invalid config: must not have additional properties: "topK"',
    },
  ]);
});

test('runtime inspection lists the eleven tools and the four hooks', async () => {
  const { code, out, json } = await openclaw({ dryRun: false }, 'plugins', 'inspect', 'svc', '--runtime', '--json');
  assert.is(code, 0, out);
  const report = json() as { plugin: { status: string; toolNames: string[] }; typedHooks: { name: string }[] };
  assert.is(report.plugin.status, 'loaded');
  assert.equal(
    report.plugin.toolNames,
    TOOLS.map((tool) => tool.name),
  );
  assert.equal(report.typedHooks.map((hook) => hook.name).sort(), [
    'agent_end',
    'before_compaction',
    'message_received',
    'session_end',
  ]);
});

test.run();
