import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { z } from 'zod';
import { findPackageRoot } from '../../lib/core/package-root.js';
import { loadToolSchemas, toolSchemasPath } from '../../lib/plugin/tools.js';
import { TOOLS } from '../../lib/tools/index.js';
import { toToolManifest } from '../../lib/tools/manifest.js';
import { INSTALL_EXAMPLE } from './install-example.js';

const root = findPackageRoot();
const manifest = JSON.parse(readFileSync(join(root, 'openclaw.plugin.json'), 'utf8')) as {
  id: string;
  activation: { onStartup: boolean };
  contracts: { tools: string[] };
  configSchema: Record<string, unknown> & { properties: Record<string, Record<string, unknown>> };
};
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  files: string[];
  openclaw: { extensions: string[] };
};
const config = z.fromJSONSchema(manifest.configSchema as never);

const test = suite('plugin.manifest');

test('openclaw.plugin.json names the plugin svc, loads it at startup and declares every tool', () => {
  assert.is(manifest.id, 'svc');
  assert.is(manifest.activation.onStartup, true);
  assert.equal(
    manifest.contracts.tools,
    TOOLS.map((tool) => tool.name),
  );
});

test('package.json names the built entry and ships the manifest', () => {
  assert.equal(pkg.openclaw.extensions, ['./dist/plugin/index.js']);
  assert.ok(existsSync(join(root, pkg.openclaw.extensions[0]!)), 'the entry is built');
  assert.ok(pkg.files.includes('openclaw.plugin.json'));
  assert.ok(pkg.files.includes('dist'));
});

test('the config schema is closed at every level and dryRun defaults to true', () => {
  const open: string[] = [];
  const walk = (schema: Record<string, unknown>, path: string) => {
    if (schema.type !== 'object') return;
    if (schema.additionalProperties !== false) open.push(path);
    for (const [key, child] of Object.entries((schema.properties ?? {}) as Record<string, Record<string, unknown>>))
      walk(child, `${path}.${key}`);
  };
  walk(manifest.configSchema, 'config');
  assert.equal(open, []);
  assert.equal(manifest.configSchema.properties.dryRun, {
    type: 'boolean',
    default: true,
    description: manifest.configSchema.properties.dryRun!.description,
  });
  for (const key of [
    'dryRun',
    'dataDir',
    'gatewayUrl',
    'gatewayToken',
    'pollIntervalMs',
    'defaultLeaseTtlMs',
    'heartbeatTtlMs',
    'maxConcurrentDispatches',
    'modules',
    'memory',
  ]) {
    assert.ok(manifest.configSchema.properties[key], `declares ${key}`);
  }
});

test('the installation example validates, and an empty config gets dryRun true', () => {
  const parsed = config.safeParse(INSTALL_EXAMPLE);
  assert.ok(parsed.success, JSON.stringify(parsed.error?.issues));
  assert.equal(config.parse({}), { dryRun: true });
});

test('an unknown key is refused, at the top and inside memory', () => {
  const top = config.safeParse({ ...INSTALL_EXAMPLE, settings: {} });
  assert.not.ok(top.success);
  assert.match(JSON.stringify(top.error!.issues), /settings/);
  const nested = config.safeParse({
    ...INSTALL_EXAMPLE,
    memory: { ...INSTALL_EXAMPLE.memory, search: { ...INSTALL_EXAMPLE.memory.search, topK: 3 } },
  });
  assert.not.ok(nested.success);
  assert.match(JSON.stringify(nested.error!.issues), /topK/);
});

test('a wrong type is refused', () => {
  assert.not.ok(config.safeParse({ dryRun: 'no' }).success);
  assert.not.ok(config.safeParse({ maxConcurrentDispatches: 0 }).success);
  assert.not.ok(config.safeParse({ memory: { search: { vectorWeight: 2 } } }).success);
});

test('the built tool schemas are exactly the JSON schemas of the zod schemas', () => {
  assert.is(toolSchemasPath(), join(root, 'dist', 'plugin', 'tools.json'));
  assert.equal(loadToolSchemas(), toToolManifest());
});

test.run();
