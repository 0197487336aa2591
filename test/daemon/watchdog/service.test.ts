import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { installService, uninstallService } from '../../../lib/daemon/service.js';
import { renderServiceFile } from '../../../lib/daemon/service-file.js';
import { toPaths } from '../../../lib/store/disk/paths.js';
import { runSvc } from '../../helpers/daemon.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';

function options(home: string, extra: { platform?: NodeJS.Platform; watchdog?: boolean } = {}) {
  return { home, svcHome: join(home, '.svc'), node: '/usr/bin/node', bin: '/opt/svc/bin/svc.js', ...extra };
}

const unit = suite('daemon.renderServiceFile watchdog');
unit.after.each(cleanRoots);

unit(
  'the systemd watchdog unit runs `svc daemon watchdog` after the daemon and is restarted only when it crashes',
  () => {
    const home = tempRoot();
    const file = renderServiceFile(options(home, { platform: 'linux' }), 'watchdog');
    assert.equal(
      [file.kind, file.name, file.file],
      ['systemd', 'svc-watchdog.service', join(home, '.config/systemd/user/svc-watchdog.service')],
    );
    assert.match(file.content, 'ExecStart="/usr/bin/node" "/opt/svc/bin/svc.js" daemon watchdog\n');
    assert.match(file.content, `Environment="SVC_HOME=${home}/.svc"\n`);
    assert.match(file.content, 'After=svc.service\n');
    assert.match(file.content, 'Restart=on-abnormal\n');
    assert.not.match(file.content, /\{\{/);
  },
);

unit('the launchd watchdog agent has its own label and KeepAlive on crashes only', () => {
  const home = tempRoot();
  const file = renderServiceFile(options(home, { platform: 'darwin' }), 'watchdog');
  assert.equal(
    [file.kind, file.name, file.file],
    ['launchd', 'svc.watchdog', join(home, 'Library/LaunchAgents/svc.watchdog.plist')],
  );
  assert.match(
    file.content,
    '<string>/opt/svc/bin/svc.js</string>\n    <string>daemon</string>\n    <string>watchdog</string>',
  );
  assert.match(file.content, '<key>Crashed</key>\n    <true/>');
  assert.match(file.content, `<string>${home}/.svc/data/logs/watchdog.log</string>`);
  assert.not.match(file.content, /\{\{/);
});

const install = suite('daemon.installService watchdog');
install.after.each(cleanRoots);

install(
  'installs the watchdog unit beside the daemon when enabled, removes it when disabled and on uninstall',
  async () => {
    const home = tempRoot();
    const watchdogFile = join(home, '.config/systemd/user/svc-watchdog.service');
    const first = await installService(options(home, { platform: 'linux', watchdog: true }));
    assert.equal(first.watchdog, { file: watchdogFile, changed: true, installed: true });
    assert.is(
      readFileSync(watchdogFile, 'utf8'),
      renderServiceFile(options(home, { platform: 'linux' }), 'watchdog').content,
    );
    assert.equal((await installService(options(home, { platform: 'linux', watchdog: true }))).watchdog, {
      file: watchdogFile,
      changed: false,
      installed: true,
    });
    assert.equal((await installService(options(home, { platform: 'linux', watchdog: false }))).watchdog, {
      file: watchdogFile,
      changed: true,
      installed: false,
    });
    assert.not.ok(existsSync(watchdogFile));
    assert.is((await installService(options(home, { platform: 'linux' }))).watchdog, undefined, 'nothing to remove');
    await installService(options(home, { platform: 'linux', watchdog: true }));
    const removed = await uninstallService(options(home, { platform: 'linux' }));
    assert.equal(
      [removed.changed, removed.watchdog?.changed, existsSync(watchdogFile), existsSync(first.file)],
      [true, true, false, false],
    );
  },
);

install('`svc daemon install` reads aof.daemon.watchdog.enabled from the org chart', async () => {
  const root = tempRoot();
  const home = tempRoot();
  const env = { SVC_HOME: root, HOME: home };
  const watchdogFile = join(home, '.config/systemd/user/svc-watchdog.service');
  const without = await runSvc(env, 'daemon', 'install');
  assert.is(without.code, 0, without.stderr);
  assert.not.ok(existsSync(watchdogFile), 'the watchdog is opt-in');
  mkdirSync(toPaths(root).org, { recursive: true });
  writeFileSync(toPaths(root).orgChart, 'schemaVersion: 1\naof:\n  daemon:\n    watchdog:\n      enabled: true\n');
  const res = await runSvc(env, 'daemon', 'install');
  assert.is(res.code, 0, res.stderr);
  assert.match(res.stdout, `Wrote ${watchdogFile} (the watchdog: aof.daemon.watchdog.enabled)\n`);
  assert.match(readFileSync(watchdogFile, 'utf8'), `Environment="SVC_HOME=${root}"`);
  const gone = await runSvc(env, 'daemon', 'uninstall');
  assert.match(gone.stdout, `Removed ${watchdogFile}\n`);
  assert.not.ok(existsSync(watchdogFile));
});

unit.run();
install.run();
