// Task locks on a network filesystem (an sshfs mount of a directory through a private sshd on
// 127.0.0.1): a lock that a writer on another host left behind is outwaited, never a failure.
import { existsSync, mkdirSync, symlinkSync, utimesSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { LOCK_STALE_MS, withLock } from '../../../lib/fs/lock/lock.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';
import {
  fuseAbsent,
  mountSshfs,
  sshfsMissing,
  startSshServer,
  type Mount,
  type SshServer,
} from '../../helpers/sshfs.js';

const absent = fuseAbsent();
if (absent) {
  process.stderr.write(
    `\n${'!'.repeat(100)}\n!!! SKIPPED fs.withLock on a network filesystem: ${absent}.\n!!! These tests need FUSE; they ran NOT AT ALL on this machine.\n${'!'.repeat(100)}\n\n`,
  );
}

const network = suite('fs.withLock on a network filesystem');
network.after.each(cleanRoots);

(absent ? network.skip : network)(
  'a lock left by a writer on another host is taken once stale: a writer asked to wait 2 s waits past the staleness instead of failing with locked',
  async () => {
    const missing = await sshfsMissing();
    if (missing) throw new Error(missing);
    const shared = tempRoot('svc-shared-');
    mkdirSync(`${shared}/locks`);
    // The lock as its writer left it, seen from the server's side: owned on another host, refreshed 4 s ago.
    const left = `${shared}/locks/TASK-1.lock`;
    mkdirSync(left);
    symlinkSync('elsewhere 4242', `${left}/owner`);
    const refreshed = (Date.now() - 4000) / 1000;
    utimesSync(left, refreshed, refreshed);
    let server: SshServer | undefined;
    let mount: Mount | undefined;
    try {
      server = await startSshServer();
      mount = await mountSshfs(server, shared, tempRoot('svc-mount-'));
      const started = Date.now();
      const result = await withLock(
        `${mount.path}/locks/TASK-1.lock`,
        { what: 'TASK-1', waitMs: 2000 },
        async (held) => {
          held.assertHeld();
          return 'written';
        },
      );
      const waited = Date.now() - started;
      const age = Date.now() - refreshed * 1000;
      assert.is(result, 'written');
      assert.ok(waited > 2000, `waited past the 2 s asked (${waited} ms)`);
      // sshfs (SFTP) carries whole seconds: the lock's mtime reads up to a second older than it is.
      assert.ok(
        age >= LOCK_STALE_MS - 1000,
        `taken only once stale (${LOCK_STALE_MS} ms after its last refresh), ${age} ms after it`,
      );
      assert.not.ok(existsSync(left), 'released: gone on the server too');
    } finally {
      await mount?.unmount();
      await server?.stop();
    }
  },
);

network.run();
