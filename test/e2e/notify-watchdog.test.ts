// The watchdog's `aof.daemon.watchdog.alerting.webhook`: when the restart limit is exceeded the watchdog delivers
// its critical report itself, through the outbox, with the daemon down.
import { mkdirSync, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { checkHealthPort } from '../../lib/daemon/health-port.js';
import { isAlive, readPid } from '../../lib/daemon/instance/pid.js';
import { dumpYaml } from '../../lib/fs/frontmatter.js';
import { toPaths } from '../../lib/store/disk/paths.js';
import { closeDaemons, healthy, runSvc, startChild } from '../helpers/daemon.js';
import { startReceiver, type HttpReceiver } from '../helpers/http-receiver.js';
import { freePort } from '../helpers/net.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';
import { bodyOf, outbox } from './notify-setup.js';

const flow = suite('e2e.notify-watchdog');
let receiver: HttpReceiver;
flow.before.each(async () => {
  receiver = await startReceiver();
});
flow.after.each(async () => {
  await closeDaemons();
  await receiver.close();
  cleanRoots();
});

flow(
  'past its restart limit the watchdog delivers its critical report to alerting.webhook, the daemon down',
  async () => {
    const root = tempRoot();
    const port = await freePort();
    mkdirSync(toPaths(root).org, { recursive: true });
    writeFileSync(
      toPaths(root).orgChart,
      dumpYaml({
        schemaVersion: 1,
        aof: {
          daemon: {
            healthPort: port,
            watchdog: {
              pollIntervalMs: 150,
              restartPolicy: { maxRestarts: 1, windowMs: 3_600_000 },
              alerting: { webhook: receiver.url },
            },
          },
        },
      }),
    );
    const env = { SVC_HOME: root, HOME: tempRoot() };
    assert.is((await runSvc(env, 'daemon', 'start')).code, 0);
    const watchdog = startChild(root, ['daemon', 'watchdog', '--port', String(port)]);
    const kill = async () => {
      const pid = await healthy(root);
      process.kill(pid, 'SIGKILL');
      return pid;
    };
    await within(15_000, () => watchdog.output().includes('checks http://127.0.0.1:'), 'the watchdog banner');
    await kill();
    await within(
      30_000,
      async () => watchdog.output().includes('restarted (pid') && (await checkHealthPort(port, 1000)).healthy,
      'the daemon restarted by the watchdog',
    );
    const last = await kill();
    const { code } = await within(30_000, () => watchdog.exited, 'the watchdog to give up');
    assert.is(code, 1);
    assert.not.ok(isAlive(last), 'the daemon is down');
    assert.is(readPid(toPaths(root)), last, 'and was not restarted');
    const [request] = await receiver.waitFor(1);
    assert.is(request!.headers['x-svc-event'], 'watchdog.critical');
    const body = bodyOf(request!);
    assert.is(body.event.type, 'watchdog.critical');
    assert.is(body.subscription, 'watchdog');
    assert.match(JSON.stringify(body), 'WATCHDOG CRITICAL');
    assert.match(watchdog.output(), 'the critical report was delivered to 1 of 1 notification(s).');
    assert.equal(await outbox(root), [], 'nothing left in the outbox');
    assert.is(receiver.requests.length, 1);
  },
);

flow.run();
