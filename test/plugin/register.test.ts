import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { toPluginSettings } from '../../lib/plugin/config.js';
import plugin, { createPlugin } from '../../lib/plugin/index.js';
import { FORWARDED_HOOKS } from '../../lib/plugin/api.js';
import { TOOLS } from '../../lib/tools/index.js';
import { toToolManifest } from '../../lib/tools/manifest.js';
import { fakeApi } from './fake-api.js';

const NAMES = TOOLS.map((tool) => tool.name);
const env = { env: {}, home: '/home/me' };

const register = suite('plugin.register');

register('the default export is the entry the gateway loads: id svc and a register function', () => {
  assert.is(plugin.id, 'svc');
  assert.type(plugin.register, 'function');
});

register('full mode registers every tool in the factory form, the four hooks and one service, synchronously', () => {
  const api = fakeApi({ mode: 'full' });
  const returned = createPlugin({ environment: env }).register(api) as unknown;
  assert.is(returned, undefined);
  assert.equal(
    api.tools.map((t) => t.name),
    NAMES,
  );
  assert.ok(api.tools.every((t) => typeof t.factory === 'function'));
  assert.equal(
    api.hooks.map((h) => h.name),
    [...FORWARDED_HOOKS],
  );
  assert.equal(
    api.services.map((s) => s.id),
    ['svc-spawns'],
  );
});

register(
  'a tool built by its factory carries the JSON schema generated from the zod schema and stays model-visible',
  () => {
    const api = fakeApi();
    createPlugin({ environment: env }).register(api);
    const manifest = toToolManifest();
    for (const entry of manifest) {
      const tool = api.tool(entry.name, { agentId: 'dev', sessionKey: 'agent:dev:main' });
      assert.equal(
        { name: tool.name, description: tool.description, parameters: tool.parameters },
        { name: entry.name, description: entry.description, parameters: entry.inputSchema },
      );
      assert.type(tool.execute, 'function');
      assert.is(tool.catalogMode, 'direct-only', 'kept out of Tool Search, since the spawn prompt names the tools');
    }
  },
);

register('discovery modes register tools and hooks but no service; metadata modes only tools', () => {
  for (const mode of ['discovery', 'tool-discovery', 'setup-runtime'] as const) {
    const api = fakeApi({ mode });
    createPlugin({ environment: env }).register(api);
    assert.is(api.tools.length, NAMES.length, mode);
    assert.is(api.hooks.length, FORWARDED_HOOKS.length, mode);
    assert.is(api.services.length, 0, mode);
  }
  for (const mode of ['cli-metadata', 'setup-only'] as const) {
    const api = fakeApi({ mode });
    createPlugin({ environment: env }).register(api);
    assert.is(api.tools.length, NAMES.length, mode);
    assert.is(api.hooks.length + api.services.length, 0, mode);
  }
});

register('registering twice gives two independent sets of registrations', () => {
  const entry = createPlugin({ environment: env });
  const first = fakeApi({ config: { dataDir: '/srv/one' } });
  const second = fakeApi({ config: { dataDir: '/srv/two' } });
  entry.register(first);
  entry.register(second);
  assert.is(first.tools.length, NAMES.length);
  assert.is(second.tools.length, NAMES.length);
  assert.is.not(first.services[0], second.services[0]);
});

const settings = suite('plugin.toPluginSettings');

settings('the root is dataDir, else SVC_HOME, else ~/.svc; the socket is <root>/data/daemon.sock', () => {
  assert.is(
    toPluginSettings({ dataDir: '/srv/svc' }, { env: { SVC_HOME: '/elsewhere' }, home: '/home/me' }).socket,
    '/srv/svc/data/daemon.sock',
  );
  assert.is(toPluginSettings({ dataDir: '~/work/svc' }, env).root, '/home/me/work/svc');
  assert.is(toPluginSettings({}, { env: { SVC_HOME: '/opt/svc' }, home: '/home/me' }).root, '/opt/svc');
  assert.is(toPluginSettings(undefined, env).socket, join('/home/me', '.svc', 'data', 'daemon.sock'));
});

settings('dryRun is on unless set to false; the numeric keys have defaults', () => {
  assert.is(toPluginSettings({}, env).dryRun, true);
  assert.is(toPluginSettings({ dryRun: false }, env).dryRun, false);
  assert.equal(
    {
      ...toPluginSettings({ maxConcurrentDispatches: 5, pollIntervalMs: 1000, defaultLeaseTtlMs: 60_000 }, env),
      root: '',
      socket: '',
    },
    { root: '', socket: '', dryRun: true, maxConcurrentDispatches: 5, retryMaxMs: 1000, runTimeoutMs: 60_000 },
  );
  assert.equal(
    { ...toPluginSettings({}, env), root: '', socket: '' },
    { root: '', socket: '', dryRun: true, maxConcurrentDispatches: 3, retryMaxMs: 30_000, runTimeoutMs: 1_800_000 },
  );
});

register.run();
settings.run();
