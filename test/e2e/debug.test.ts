import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SVC_BIN } from '../helpers/agents.js';
import { healthy } from '../helpers/daemon.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';

const debug = suite('e2e.debug');
debug.after.each(cleanRoots);

debug('DEBUG=svc:scheduler writes one verbose line per tick to the daemon log', async () => {
  const root = tempRoot();
  const child = spawn(process.execPath, [SVC_BIN, 'daemon', 'run'], {
    env: { ...process.env, SVC_HOME: root, DEBUG: 'svc:scheduler' },
    stdio: 'ignore',
  });
  const exited = new Promise((resolve) => child.on('close', resolve));
  try {
    await healthy(root);
    const line = await within(
      5000,
      () =>
        readFileSync(`${root}/data/logs/daemon.log`, 'utf8').match(
          /svc:scheduler tick: \d+ ready, \d+ in progress -> [^\n]+/,
        )?.[0],
      'a tick line',
    );
    assert.match(line, /nothing to do/);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
});

debug.run();
