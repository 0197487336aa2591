// A GlusterFS volume on this machine, mounted twice through FUSE: how the GlusterFS tests share one
// tasks/ tree the way two hosts would. glusterd runs in the foreground with its own volfile and
// working directory in a temp dir (a glusterd already answering on this machine is used as is and
// left running); the volume is replica 2 over two bricks in that temp dir, and everything made is
// taken down again by `stop()`, which a test calls in a `finally`.
import { execFile, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gluster, isGlusterdUp, killBricks, startGlusterd, stopChild, unmount } from './glusterd.js';

const run = promisify(execFile);

/** The `performance.*` translators that cache on the client; the coherent volume turns them off. */
export const CACHING_TRANSLATORS = [
  'stat-prefetch',
  'quick-read',
  'open-behind',
  'write-behind',
  'io-cache',
  'read-ahead',
] as const;
/**
 * The daemon's environment on a coherent mount (docs/several-hosts.md): every file
 * operation there waits a round trip, so Node's 4 file system threads would cap the daemon.
 */
export const COHERENT_DAEMON_ENV = { UV_THREADPOOL_SIZE: '16' };
/** glusterfs client arguments that keep no attribute, name or page cache past a call. */
export const COHERENT_MOUNT_ARGS = [
  '--attribute-timeout=0',
  '--entry-timeout=0',
  '--negative-timeout=0',
  '--fopen-keep-cache=off',
];

/**
 * What is missing to run the GlusterFS tests, or null. As root with apt-get (a fresh Debian machine
 * or CI) the packages are installed first; anywhere else a missing tool is a failure naming them.
 */
export async function glusterMissing(): Promise<string | null> {
  const missing = await lookForGluster();
  if (!missing || process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) return missing;
  process.stderr.write(`installing glusterfs-server and glusterfs-client for the GlusterFS tests (${missing})\n`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (...args: string[]) => run('apt-get', args, { env, maxBuffer: 64 * 1024 * 1024 });
  await apt('update').catch(() => undefined);
  await apt('install', '-y', '--no-install-recommends', 'glusterfs-server', 'glusterfs-client').catch((err: Error) =>
    process.stderr.write(`apt-get install failed: ${err.message}\n`),
  );
  return lookForGluster();
}

/** One started replica-2 volume. */
export interface GlusterVolume {
  name: string;
  /** A mount of the volume for the test's own checks, without client caches (what the bricks hold). */
  admin: string;
  /** Turns the client-side caching translators off (`coherent`) or back on (the defaults); mounts made later get it. */
  setCoherent(coherent: boolean): Promise<void>;
  /** Mounts the volume (or its directory `subdir`) at `at` with the glusterfs client (`coherent`: no client caches). */
  mount(at: string, options?: { coherent?: boolean; subdir?: string }): Promise<GlusterMount>;
  /** Unmounts every mount, stops and deletes the volume, stops the glusterd it started, removes the bricks. */
  stop(): Promise<void>;
}

/** A FUSE mount of a volume. */
export interface GlusterMount {
  path: string;
  /** The glusterfs client's log (failed closes and stale handles are logged there). */
  log: string;
  unmount(): Promise<void>;
}

/**
 * Starts glusterd (unless one runs) and a replica-2 volume over two bricks in a temp dir.
 * `coherent` turns the client-side caching translators off on the volume.
 */
export async function startGlusterVolume(options: { coherent?: boolean } = {}): Promise<GlusterVolume> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-gluster-'));
  const name = `svc${process.pid}${Math.random().toString(36).slice(2, 6)}`;
  const mounts: string[] = [];
  let glusterd: ChildProcess | undefined;
  let created = false;
  const mountAt = async (at: string, coherent: boolean, subdir?: string): Promise<string> => {
    mkdirSync(at, { recursive: true });
    const log = `${dir}/mount-${mounts.length}.log`;
    const args = [
      ...(coherent ? COHERENT_MOUNT_ARGS : []),
      '--volfile-server=127.0.0.1',
      `--volfile-id=${name}`,
      ...(subdir ? [`--subdir-mount=/${subdir}`] : []),
      `--log-file=${log}`,
      at,
    ];
    await run('glusterfs', args, { timeout: 30_000 }); // forks the client and returns once it is mounted
    mounts.push(at);
    return log;
  };
  const stop = async () => {
    for (const at of mounts.splice(0)) await unmount(at);
    if (created) {
      await gluster('volume', 'stop', name, 'force').catch(() => undefined);
      await gluster('volume', 'delete', name).catch(() => undefined);
      killBricks(name);
    }
    if (glusterd) await stopChild(glusterd);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    if (!(await isGlusterdUp())) glusterd = await startGlusterd(dir);
    const host = hostname(); // glusterd refuses 127.0.0.1 and localhost as a brick's host
    await gluster('volume', 'create', name, 'replica', '2', `${host}:${dir}/b1`, `${host}:${dir}/b2`, 'force');
    created = true;
    if (options.coherent)
      for (const xlator of CACHING_TRANSLATORS) await gluster('volume', 'set', name, `performance.${xlator}`, 'off');
    await gluster('volume', 'start', name);
    await mountAt(`${dir}/admin`, true);
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    name,
    admin: `${dir}/admin`,
    async setCoherent(coherent) {
      for (const xlator of CACHING_TRANSLATORS)
        await gluster('volume', 'set', name, `performance.${xlator}`, coherent ? 'off' : 'on');
    },
    async mount(at, mountOptions = {}) {
      const log = await mountAt(at, mountOptions.coherent === true, mountOptions.subdir);
      return {
        path: at,
        log,
        unmount: async () => {
          if (!mounts.includes(at)) return undefined;
          mounts.splice(mounts.indexOf(at), 1);
          return unmount(at);
        },
      };
    },
    stop,
  };
}

/** Runs `fn` with a started volume, and always stops it. */
export async function withGlusterVolume<T>(
  options: { coherent?: boolean },
  fn: (volume: GlusterVolume) => Promise<T>,
): Promise<T> {
  const volume = await startGlusterVolume(options);
  try {
    return await fn(volume);
  } finally {
    await volume.stop();
  }
}

// --- internal ---

async function lookForGluster(): Promise<string | null> {
  const missing: string[] = [];
  for (const [bin, pkg] of [
    ['glusterd', 'glusterfs-server'],
    ['gluster', 'glusterfs-server'],
    ['glusterfs', 'glusterfs-client'],
    ['umount', 'mount'],
  ] as const) {
    if (
      !(await run('sh', ['-c', `command -v ${bin}`]).then(
        () => true,
        () => false,
      ))
    )
      missing.push(`${bin} (package ${pkg})`);
  }
  if (process.getuid?.() !== 0) missing.push('root (glusterd and glusterfs mounts need it)');
  return missing.length
    ? `missing ${missing.join(', ')}: install with \`apt-get install -y glusterfs-server glusterfs-client\``
    : null;
}
