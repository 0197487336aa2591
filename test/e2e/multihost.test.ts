// Several hosts on one tree: two daemons, each on its own sshfs mount of one tasks/ tree (a private
// sshd on 127.0.0.1), take a burst of svc_dispatch calls split across them. Every task must be
// done, dispatched and run exactly once, and no call may fail. SVC_MULTIHOST_TASKS sets the burst
// (default 300) for a longer run.
import { suite } from 'uvu';
import { toPaths } from '../../lib/store/disk/paths.js';
import { initTree } from '../../lib/store/commit/store.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';
import { fuseAbsent, mountSshfs, sshfsMissing, startSshServer, type SshServer } from '../helpers/sshfs.js';
import { withTwoHosts } from '../helpers/two-daemons.js';
import { assertOnce, untilDone } from '../helpers/two-daemons-checks.js';
import { dispatchBurst, remoteLatency } from '../helpers/two-daemons-load.js';

const TASKS = Number(process.env.SVC_MULTIHOST_TASKS ?? 300);

const absent = fuseAbsent();
if (absent) {
  process.stderr.write(
    `\n${'!'.repeat(100)}\n!!! SKIPPED e2e.multihost (two daemons on sshfs mounts of one tree): ${absent}.\n!!! These tests need FUSE; they ran NOT AT ALL on this machine.\n${'!'.repeat(100)}\n\n`,
  );
}

const multihost = suite('e2e.multihost');
multihost.after.each(cleanRoots);

for (const [label, options] of [
  ['default sshfs options', []],
  ['dir_cache=no', ['dir_cache=no']],
] as const) {
  (absent ? multihost.skip : multihost)(
    `two daemons on two sshfs mounts (${label}) of one tree: a burst of ${TASKS} svc_dispatch calls split across them is all done, each task dispatched and run once, no call failing`,
    async () => {
      const missing = await sshfsMissing();
      if (missing) throw new Error(missing);
      const shared = tempRoot('svc-shared-');
      await initTree(toPaths(shared));
      let server: SshServer | undefined;
      try {
        server = await startSshServer();
        const sshd = server;
        await withTwoHosts(
          { mount: (home) => mountSshfs(sshd, toPaths(shared).tasks, toPaths(home).tasks, [...options]) },
          async (hosts) => {
            const started = Date.now();
            const ids = await dispatchBurst(hosts, TASKS);
            process.stdout.write(`  (calls answered after ${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
            await untilDone(toPaths(shared).tasks, ids, hosts);
            const drainMs = Date.now() - started;
            await assertOnce(hosts, toPaths(shared).tasks, ids);
            const latency = await remoteLatency(hosts);
            process.stdout.write(
              `  (${label}: ${TASKS} tasks drained in ${(drainMs / 1000).toFixed(1)} s; remote change seen by the other daemon after ${latency.map((ms) => (ms / 1000).toFixed(1)).join(', ')} s)\n`,
            );
          },
        );
      } finally {
        await server?.stop();
      }
    },
  );
}

multihost.run();
