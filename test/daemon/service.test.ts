import { existsSync, readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { installService, uninstallService } from '../../lib/daemon/service.js';
import { renderServiceFile, type Runner } from '../../lib/daemon/service-file.js';
import { supervisorProblem } from '../../lib/daemon/supervisor.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

function options(home: string, extra: { platform?: NodeJS.Platform; svcHome?: string; run?: Runner } = {}) {
  return {
    home,
    svcHome: extra.svcHome ?? join(home, '.svc'),
    node: '/usr/bin/node',
    bin: '/opt/svc/bin/svc.js',
    ...extra,
  };
}

const render = suite('daemon.renderServiceFile');
render.after.each(cleanRoots);

render('a systemd user unit runs `svc daemon run` with SVC_HOME and loads data/daemon.env when present', () => {
  const home = tempRoot();
  const unit = renderServiceFile(options(home, { platform: 'linux' }));
  assert.is(unit.kind, 'systemd');
  assert.is(unit.file, join(home, '.config/systemd/user/svc.service'));
  assert.match(unit.content, `ExecStart="/usr/bin/node" --max-old-space-size=1024 "/opt/svc/bin/svc.js" daemon run\n`);
  assert.match(unit.content, `Environment="SVC_HOME=${home}/.svc"\n`);
  assert.match(unit.content, `EnvironmentFile=-${home}/.svc/data/daemon.env\n`);
  assert.match(unit.content, /Restart=on-failure/);
  assert.match(unit.content, /KillMode=process/);
  assert.match(unit.content, /WantedBy=default.target/);
  assert.not.match(unit.content, /\{\{/);
});

render('systemd values are escaped: quotes, backslashes and % specifiers', () => {
  const home = tempRoot();
  const unit = renderServiceFile(options(home, { platform: 'linux', svcHome: join(home, 'a "b" 100%') }));
  assert.match(unit.content, `Environment="SVC_HOME=${home}/a \\"b\\" 100%%"`);
});

render('a launchd plist under ~/Library/LaunchAgents, XML-escaped, sourcing the env file before exec', () => {
  const home = tempRoot();
  const plist = renderServiceFile(options(home, { platform: 'darwin', svcHome: join(home, 'R&D') }));
  assert.is(plist.kind, 'launchd');
  assert.is(plist.file, join(home, 'Library/LaunchAgents/svc.daemon.plist'));
  assert.match(plist.content, '<string>svc.daemon</string>');
  assert.match(
    plist.content,
    '<string>/usr/bin/node</string>\n    <string>--max-old-space-size=1024</string>\n    <string>/opt/svc/bin/svc.js</string>',
  );
  assert.match(plist.content, `<string>${home}/R&amp;D/data/daemon.env</string>`);
  assert.match(plist.content, `<string>${home}/R&amp;D/data/logs/daemon.log</string>`);
  assert.match(plist.content, 'exec "$0" "$1" "$2" daemon run');
  assert.not.match(plist.content, /\{\{/);
});

const install = suite('daemon.installService');
install.after.each(cleanRoots);

install('writes the unit into the given home, says why it was not loaded, and is idempotent', async () => {
  const home = tempRoot();
  const first = await installService(options(home, { platform: 'linux' }));
  assert.equal([first.changed, first.supervised], [true, false]);
  assert.match(first.why!, /not the home of this user/);
  assert.is(readFileSync(first.file, 'utf8'), renderServiceFile(options(home, { platform: 'linux' })).content);
  const second = await installService(options(home, { platform: 'linux' }));
  assert.equal([second.changed, second.supervised], [false, false]);
  const removed = await uninstallService(options(home, { platform: 'linux' }));
  assert.equal([removed.changed, existsSync(first.file)], [true, false]);
  assert.is((await uninstallService(options(home, { platform: 'linux' }))).changed, false);
});

install('the supervisor is used only for the real home, and only when it answers', async () => {
  const real = userInfo().homedir;
  const answering: Runner = async () => ({ code: 0, stdout: '', stderr: '' });
  const absent: Runner = async () => ({ code: 1, stdout: '', stderr: 'Failed to connect to bus: No medium found\n' });
  assert.is(await supervisorProblem('systemd', options(real, { run: answering })), null);
  assert.match(
    (await supervisorProblem('systemd', options(real, { run: absent })))!,
    /systemctl --user is not available here \(Failed to connect to bus/,
  );
  assert.match(
    (await supervisorProblem('systemd', options(tempRoot(), { run: answering })))!,
    /not the home of this user/,
  );
});

render.run();
install.run();
