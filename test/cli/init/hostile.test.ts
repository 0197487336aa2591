import { execFileSync } from 'node:child_process';
import { lstatSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { init, makeWorld, readConfig, type InitWorld } from '../../helpers/init.js';
import { cleanRoots } from '../../helpers/root.js';

// `svc init` on hostile configs (docs/openclaw.md, "svc init"): each refused at once, with a clear message,
// nothing written, nothing raw on the terminal.

/** Every entry under the world, by lstat (never following a link nor opening a FIFO): equal snapshots mean nothing was written. */
function entries(world: InitWorld): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const stat = lstatSync(path);
      if (stat.isDirectory()) walk(path);
      else out[relative(world.dir, path)] = stat.isFile() ? readFileSync(path, 'utf8') : `type ${stat.mode & 0o170000}`;
    }
  };
  walk(world.dir);
  return out;
}

/** Runs `svc init --yes` (and any more flags): it must fail within 5 s, write nothing, print no control character; returns stderr. */
async function refused(world: InitWorld, ...more: string[]): Promise<string> {
  const before = entries(world);
  const started = Date.now();
  const result = await init(world, '--yes', ...more);
  assert.ok(Date.now() - started < 5000, `refused quickly (${Date.now() - started} ms)`);
  assert.is(result.code, 1, result.stdout);
  assert.equal(entries(world), before, 'nothing written');
  assert.not.match(result.stderr, /[\u0000-\u0008\u000b-\u001f\u007f]/, 'no raw control character on the terminal');
  assert.match(result.stderr, /nothing (was )?(read or )?(written|changed)/);
  return result.stderr;
}

const hostile = suite('cli.init on hostile configs');
hostile.after.each(() => cleanRoots());

hostile('a FIFO as the gateway config is refused without waiting for a writer', async () => {
  const world = makeWorld(null);
  execFileSync('mkfifo', [world.config]);
  assert.match(
    await refused(world),
    `${world.config}: a FIFO (named pipe), not a regular file; the gateway config must be a regular file.`,
  );
});

hostile('a symlink to /dev/zero is refused without reading a byte', async () => {
  const world = makeWorld(null);
  symlinkSync('/dev/zero', world.config);
  const memory = process.memoryUsage().rss;
  assert.match(
    await refused(world),
    `${world.config}: a symbolic link to /dev/zero (a character device), not a regular file`,
  );
  assert.ok(process.memoryUsage().rss - memory < 64 * 1024 * 1024, 'nothing was read into memory');
});

hostile('a symlink to a regular config is followed (a dotfiles repository)', async () => {
  const world = makeWorld(null);
  const real = join(world.dir, 'dotfiles.json');
  writeFileSync(real, '{ gateway: { mode: "local" } }\n');
  symlinkSync(real, world.config);
  const result = await init(world, '--dry-run');
  assert.is(result.code, 0, result.stderr);
});

hostile('a config over the size limit is refused by its size', async () => {
  const world = makeWorld(`{ "pad": "${'x'.repeat(4 * 1024 * 1024)}" }`);
  assert.match(await refused(world), /openclaw\.json: the gateway config has \d+ bytes; the limit is 4194304\./);
});

hostile('a config nested 5,000 levels deep is refused by the named depth limit, with its line and column', async () => {
  const world = makeWorld(`{ "a": ${'['.repeat(5000)}${']'.repeat(5000)} }\n`);
  const stderr = await refused(world);
  assert.match(
    stderr,
    `${world.config}:1:107: nested deeper than 100 levels (objects and arrays), the most svc reads.`,
  );
  assert.not.match(stderr, /call stack/);
});

hostile(
  'a wrong-typed section svc init writes is refused, naming each path and type; --force replaces it',
  async () => {
    const world = makeWorld(
      '{ plugins: { entries: "oops" }, gateway: { tools: { allow: "sessions_spawn" } }, agents: { entries: { main: { subagents: 7 } } } }\n',
    );
    const stderr = await refused(world);
    assert.match(stderr, 'svc init writes into these sections, which have another type:');
    assert.match(stderr, '  plugins.entries: expected an object, found a string ("oops")');
    assert.match(stderr, '  gateway.tools.allow: expected an array, found a string ("sessions_spawn")');
    assert.match(stderr, '  agents.entries.main.subagents: expected an object, found a number (7)');
    assert.match(stderr, 'hint: Fix them in the file, or run `svc init --force` to replace them');
    const forced = await init(world, '--yes', '--force');
    assert.is(forced.code, 0, forced.stderr);
    assert.is(readConfig(world).plugins.entries.svc.enabled, true);
    assert.equal(readConfig(world).gateway.tools.allow, ['sessions_spawn']);
  },
);

hostile('an agent id with an escape sequence is refused and shown escaped', async () => {
  const world = makeWorld(
    `${JSON.stringify({ agents: { entries: { main: {}, '\u001b[2J\u001b]0;pwned\u0007evil': {} } } })}\n`,
  );
  const stderr = await refused(world);
  assert.match(stderr, 'agent ids with control characters (shown escaped): "\\x1b[2J\\x1b]0;pwned\\x07evil"');
});

hostile('a FIFO as the org chart is refused too', async () => {
  const world = makeWorld('{ gateway: { mode: "local" } }\n');
  execFileSync('mkdir', ['-p', join(world.root, 'org')]);
  execFileSync('mkfifo', [join(world.root, 'org', 'org-chart.yaml')]);
  assert.match(
    await refused(world),
    'org-chart.yaml: a FIFO (named pipe), not a regular file; the org chart must be a regular file.',
  );
  rmSync(join(world.root, 'org', 'org-chart.yaml'));
});

hostile.run();
