// A GlusterFS volume on this machine, mounted twice through FUSE: how the GlusterFS tests share one
// tasks/ tree the way two hosts would. glusterd runs in the foreground with its own volfile and
// working directory in a temp dir (a glusterd already answering on this machine is used as is and
// left running); the volume is replica 2 over two bricks in that temp dir, and everything made is
// taken down again by `stop()`, which a test calls in a `finally`.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

// Debian installs glusterd, gluster and glusterfs in /usr/sbin, which a non-login PATH may lack.
for (const dir of ['/usr/sbin', '/sbin']) {
  if (!(process.env.PATH ?? '').split(':').includes(dir)) process.env.PATH = `${process.env.PATH ?? ''}:${dir}`;
}

/** The `performance.*` translators that cache on the client; the coherent volume turns them off. */
export const CACHING_TRANSLATORS = ['stat-prefetch', 'quick-read', 'open-behind', 'write-behind', 'io-cache', 'read-ahead'] as const;
/**
 * The daemon's environment on a coherent mount (docs/several-hosts.md): every file
 * operation there waits a round trip, so Node's 4 file system threads would cap the daemon.
 */
export const COHERENT_DAEMON_ENV = { UV_THREADPOOL_SIZE: '16' };
/** glusterfs client arguments that keep no attribute, name or page cache past a call. */
export const COHERENT_MOUNT_ARGS = ['--attribute-timeout=0', '--entry-timeout=0', '--negative-timeout=0', '--fopen-keep-cache=off'];

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
  await apt('install', '-y', '--no-install-recommends', 'glusterfs-server', 'glusterfs-client').catch((err: Error) => process.stderr.write(`apt-get install failed: ${err.message}\n`));
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
    const args = [...(coherent ? COHERENT_MOUNT_ARGS : []), '--volfile-server=127.0.0.1', `--volfile-id=${name}`, ...(subdir ? [`--subdir-mount=/${subdir}`] : []), `--log-file=${log}`, at];
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
    if (options.coherent) for (const xlator of CACHING_TRANSLATORS) await gluster('volume', 'set', name, `performance.${xlator}`, 'off');
    await gluster('volume', 'start', name);
    await mountAt(`${dir}/admin`, true);
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    name, admin: `${dir}/admin`,
    async setCoherent(coherent) {
      for (const xlator of CACHING_TRANSLATORS) await gluster('volume', 'set', name, `performance.${xlator}`, coherent ? 'off' : 'on');
    },
    async mount(at, mountOptions = {}) {
      const log = await mountAt(at, mountOptions.coherent === true, mountOptions.subdir);
      return { path: at, log, unmount: async () => (mounts.includes(at) ? (mounts.splice(mounts.indexOf(at), 1), unmount(at)) : undefined) };
    },
    stop,
  };
}

/** Runs `fn` with a started volume, and always stops it. */
export async function withGlusterVolume<T>(options: { coherent?: boolean }, fn: (volume: GlusterVolume) => Promise<T>): Promise<T> {
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
  for (const [bin, pkg] of [['glusterd', 'glusterfs-server'], ['gluster', 'glusterfs-server'], ['glusterfs', 'glusterfs-client'], ['umount', 'mount']] as const) {
    if (!(await run('sh', ['-c', `command -v ${bin}`]).then(() => true, () => false))) missing.push(`${bin} (package ${pkg})`);
  }
  if (process.getuid?.() !== 0) missing.push('root (glusterd and glusterfs mounts need it)');
  return missing.length ? `missing ${missing.join(', ')}: install with \`apt-get install -y glusterfs-server glusterfs-client\`` : null;
}

function gluster(...args: string[]): Promise<{ stdout: string }> {
  return run('gluster', ['--mode=script', ...args], { timeout: 60_000 });
}

async function isGlusterdUp(): Promise<boolean> {
  return gluster('volume', 'list').then(() => true, () => false);
}

/** glusterd in the foreground, its working directory, log and pid file under `dir`; resolves once it answers. */
async function startGlusterd(dir: string): Promise<ChildProcess> {
  mkdirSync(`${dir}/glusterd`, { recursive: true });
  writeFileSync(`${dir}/glusterd.vol`, [
    'volume management', '    type mgmt/glusterd', `    option working-directory ${dir}/glusterd`, '    option transport-type socket',
    '    option transport.socket.listen-port 24007', '    option ping-timeout 0', '    option event-threads 1', 'end-volume', '',
  ].join('\n'));
  const child = spawn('glusterd', ['-N', '-f', `${dir}/glusterd.vol`, '-l', `${dir}/glusterd.log`, '-p', `${dir}/glusterd.pid`], { stdio: 'ignore' });
  const exited = new Promise<string>((resolve) => child.once('exit', (code) => resolve(`glusterd exited with ${code}`)));
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const ready = await Promise.race([isGlusterdUp(), exited]);
    if (ready === true) return child;
    if (typeof ready === 'string') throw new Error(`${ready}: ${tail(`${dir}/glusterd.log`)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stopChild(child);
  throw new Error(`glusterd did not answer within 30 s: ${tail(`${dir}/glusterd.log`)}`);
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Brick processes of a volume whose stop failed (their pid files are in glusterd's run directory). */
function killBricks(name: string): void {
  const dir = `/var/run/gluster/vols/${name}`;
  if (!existsSync(dir)) return;
  for (const file of readdirSync(dir).filter((entry) => entry.endsWith('.pid'))) {
    const pid = Number.parseInt(readFileSync(join(dir, file), 'utf8'), 10);
    if (pid > 0) { try { process.kill(pid, 'SIGKILL'); } catch { /* gone already */ } }
  }
  rmSync(dir, { recursive: true, force: true });
}

/** `umount`, retried while the mount is busy; lazily detached as a last resort. */
async function unmount(at: string): Promise<void> {
  for (let attempt = 1; attempt <= 20; attempt++) {
    try {
      await run('umount', [at]);
      return;
    } catch (err) {
      if (!/busy/i.test(String((err as { stderr?: string }).stderr ?? err))) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  await run('umount', ['-l', at]).catch(() => undefined);
}

function tail(file: string): string {
  return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').slice(-5).join('\n') : '(no log)';
}
