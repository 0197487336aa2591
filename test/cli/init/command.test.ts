import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { findPackageRoot } from '../../../lib/core/package-root.js';
import { SVC_BIN } from '../../helpers/agents.js';
import { COMMENTED_CONFIG, init, makeWorld, readConfig, snapshot } from '../../helpers/init.js';
import { cleanRoots } from '../../helpers/root.js';

const run = promisify(execFile);
const test = suite('cli.init');
test.after.each(() => cleanRoots());

test('--yes registers the plugin, the allow-lists, the skill and the token, and says where the comments went', async () => {
  const world = makeWorld(COMMENTED_CONFIG);
  chmodSync(world.config, 0o600);
  const result = await init(world, '--yes');
  assert.is(result.code, 0, result.stderr);
  assert.is(statSync(world.config).mode & 0o777, 0o600, 'the config keeps its mode');
  const config = readConfig(world);
  assert.equal(config.plugins.load.paths, [findPackageRoot()]);
  assert.equal(config.plugins.entries.svc, {
    enabled: true,
    config: { dryRun: false, dataDir: world.root },
    hooks: { allowConversationAccess: true },
  });
  assert.equal(config.gateway.tools.allow, ['sessions_spawn']);
  assert.equal(config.gateway.auth.token, 'tok-123', 'other settings are kept');
  const skill = join(world.state, 'skills', 'svc', 'SKILL.md');
  assert.is(
    readFileSync(skill, 'utf8'),
    readFileSync(join(findPackageRoot(), 'templates', 'skill', 'svc', 'SKILL.md'), 'utf8'),
  );
  const envFile = join(world.root, 'data', 'daemon.env');
  assert.is(readFileSync(envFile, 'utf8'), 'SVC_GATEWAY_TOKEN=tok-123\n');
  assert.is(statSync(envFile).mode & 0o777, 0o600);
  const backups = readdirSync(world.state).filter((name) => name.endsWith('.bak'));
  assert.is(backups.length, 1);
  assert.is(
    readFileSync(join(world.state, backups[0]!), 'utf8'),
    COMMENTED_CONFIG,
    'the backup is the original, comments included',
  );
  assert.is(
    statSync(join(world.state, backups[0]!)).mode & 0o777,
    0o600,
    'the backup is as private as the config (it holds the token)',
  );
  assert.match(
    result.stdout,
    `does not keep its comments; the original, comments included, is in ${join(world.state, backups[0]!)}`,
  );
  assert.match(result.stdout, /^done {10}plugin$/m);
});

test('a second run changes nothing, byte for byte, and says every step is already done', async () => {
  const world = makeWorld(COMMENTED_CONFIG);
  assert.is((await init(world, '--yes')).code, 0);
  const before = snapshot(world);
  const second = await init(world, '--yes');
  assert.is(second.code, 0, second.stderr);
  assert.equal(snapshot(world), before);
  for (const step of ['plugin', 'org chart', 'gateway agents', 'allow-list', 'skill', 'standalone adapter'])
    assert.match(second.stdout, new RegExp(`^already done  ${step}$`, 'm'));
  assert.match(second.stdout, /^skipped {7}memory \(the memory module stays disabled/m);
  assert.match(second.stdout, /Nothing to change\./);
});

test('a plain JSON config stays plain JSON and keeps a backup', async () => {
  const original = `${JSON.stringify({ gateway: { mode: 'local' }, plugins: { allow: ['voice'] } }, null, 2)}\n`;
  const world = makeWorld(original);
  const result = await init(world, '--yes');
  assert.is(result.code, 0, result.stderr);
  const text = readFileSync(world.config, 'utf8');
  assert.equal(JSON.parse(text).plugins.allow, ['voice', 'svc'], 'plugins.allow gets svc when the gateway uses one');
  assert.match(result.stdout, /Backup of the previous gateway config: .*openclaw\.json\.\d{8}T\d{6}Z\.bak/);
  assert.is(readdirSync(world.state).filter((name) => name.endsWith('.bak')).length, 1);
});

test('another copy of svc in plugins.load.paths is replaced by this one', async () => {
  const world = makeWorld('{}');
  const old = join(world.dir, 'old-svc');
  mkdirSync(old);
  writeFileSync(join(old, 'openclaw.plugin.json'), '{"id": "svc"}');
  const other = join(world.dir, 'voice');
  writeFileSync(world.config, JSON.stringify({ plugins: { load: { paths: [other, old] } } }));
  const result = await init(world, '--yes');
  assert.match(result.stdout, `plugins.load.paths -= ${old} (another copy of svc`);
  assert.equal(readConfig(world).plugins.load.paths, [other, findPackageRoot()]);
});

test('no plugins.allow in the config: none is added', async () => {
  const world = makeWorld('{}');
  assert.is((await init(world, '--yes')).code, 0);
  assert.is(readConfig(world).plugins.allow, undefined);
});

test('--standalone registers `svc mcp` instead of the plugin and disables the plugin entry; a second run changes nothing', async () => {
  const world = makeWorld('{}');
  assert.is((await init(world, '--yes')).code, 0);
  const result = await init(world, '--yes', '--standalone');
  assert.is(result.code, 0, result.stderr);
  const config = readConfig(world);
  assert.equal(config.mcp.servers.svc, {
    command: process.execPath,
    args: [join(findPackageRoot(), 'bin', 'svc.js'), 'mcp'],
    env: { SVC_HOME: world.root },
    enabled: true,
  });
  assert.is(config.plugins.entries.svc.enabled, false, 'the tools are not served twice');
  assert.match(result.stdout, /^skipped {7}plugin \(standalone mode: agents reach the tools over MCP\)$/m);
  const before = snapshot(world);
  assert.match((await init(world, '--yes', '--standalone')).stdout, /^already done  mcp server$/m);
  assert.equal(snapshot(world), before);
  const back = await init(world, '--yes');
  assert.match(back.stdout, /note: mcp\.servers\.svc also serves the svc tools/);
  assert.is(readConfig(world).plugins.entries.svc.enabled, true);
});

test('--dry-run prints the plan and writes nothing', async () => {
  const world = makeWorld(COMMENTED_CONFIG, 'schemaVersion: 1\nagents:\n  - id: dev\n    name: Developer\n');
  const before = snapshot(world);
  const result = await init(world, '--dry-run', '--yes');
  assert.is(result.code, 0, result.stderr);
  assert.equal(snapshot(world), before);
  assert.match(result.stdout, /Dry run: nothing is written\./);
  assert.match(result.stdout, /^planned {7}plugin$/m);
  assert.match(result.stdout, /agents\.entries \+= dev/);
  assert.match(result.stdout, /install .*skills\/svc\/SKILL\.md/);
});

test('--json prints the steps as objects', async () => {
  const world = makeWorld('{}');
  const result = await init(world, '--yes', '--json');
  const report = JSON.parse(result.stdout) as {
    config: string;
    applied: boolean;
    steps: Array<{ step: string; status: string; changes: string[] }>;
  };
  assert.is(report.config, world.config);
  assert.is(report.applied, true);
  assert.equal(
    report.steps.map((step) => step.step),
    ['plugin', 'mcp server', 'org chart', 'gateway agents', 'allow-list', 'memory', 'skill', 'standalone adapter'],
  );
  assert.is(report.steps[0]!.status, 'done');
  assert.ok(report.steps[0]!.changes.some((change) => change.startsWith('plugins.load.paths += ')));
});

test('a malformed config is an error with its line and column, and nothing is written', async () => {
  const world = makeWorld('{\n  gateway: { mode: "local" },\n  agents: { entries: { main: {} }\n  oops\n}\n');
  const before = snapshot(world);
  const result = await init(world, '--yes');
  assert.is(result.code, 1);
  assert.match(result.stderr, `svc: ${world.config}:4:3: malformed JSON5: invalid character 'o'`);
  assert.match(result.stderr, /hint: Fix the file at that line and column; nothing was changed\./);
  assert.equal(snapshot(world), before);
});

test('a config that is not an object, or that does not exist, is an error and nothing is written', async () => {
  const world = makeWorld('[1, 2]');
  const before = snapshot(world);
  const notObject = await init(world, '--yes');
  assert.is(notObject.code, 1);
  assert.match(notObject.stderr, 'the gateway config is not an object');
  assert.equal(snapshot(world), before);
  const missing = makeWorld(null);
  const absent = await init(missing, '--yes');
  assert.is(absent.code, 1);
  assert.match(absent.stderr, `No gateway config at ${missing.config}`);
  assert.match(absent.stderr, /hint: .*--config <path>/);
  assert.not.ok(existsSync(join(missing.root, 'org')));
});

test('--config and OPENCLAW_CONFIG_PATH choose the file, --config first', async () => {
  const world = makeWorld('{}');
  const other = join(world.dir, 'other.json5');
  const third = join(world.dir, 'third.json5');
  writeFileSync(other, '{}');
  writeFileSync(third, '{}');
  world.env.OPENCLAW_CONFIG_PATH = third;
  assert.is((await init(world, '--yes', '--config', other)).code, 0);
  assert.ok(readFileSync(other, 'utf8').includes('svc'));
  assert.is(readFileSync(third, 'utf8'), '{}');
  assert.is(readFileSync(world.config, 'utf8'), '{}');
  assert.is((await init(world, '--yes')).code, 0);
  assert.ok(readFileSync(third, 'utf8').includes('svc'));
  assert.is(readFileSync(world.config, 'utf8'), '{}');
});

test('without --yes and without a terminal, the built CLI prints the plan and changes nothing', async () => {
  const world = makeWorld(COMMENTED_CONFIG);
  const before = snapshot(world);
  const { stdout } = await run(process.execPath, [SVC_BIN, 'init'], { env: { ...process.env, ...world.env } });
  assert.equal(snapshot(world), before);
  assert.match(
    stdout,
    /No terminal to ask on: this is the plan, nothing is changed\. Run `svc init --yes` to apply it\./,
  );
  assert.match(stdout, /^planned {7}plugin$/m);
  assert.match(stdout, /^planned {7}standalone adapter$/m);
});

test.run();
