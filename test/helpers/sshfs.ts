// A private sshd on 127.0.0.1 and sshfs mounts of one directory: how the multi-host tests share one
// tasks/ tree the way two hosts would, on one machine. Nothing of the system's own sshd is touched:
// a throwaway host key and client key in a temp directory, its own config, a random port.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './net.js';

const run = promisify(execFile);
const SSHD = '/usr/sbin/sshd';

/** Why sshfs tests cannot run here at all (FUSE absent), or null. Only this is a reason to skip. */
export function fuseAbsent(): string | null {
  return existsSync('/dev/fuse') ? null : '/dev/fuse is missing: this kernel or container has no FUSE';
}

/**
 * What is missing to run the sshfs tests, or null. As root with apt-get (a fresh Debian machine or
 * CI) the missing packages are installed first, so `npm test` runs them there too; anywhere else a
 * missing tool is a failure naming the packages, never a skip.
 */
export async function sshfsMissing(): Promise<string | null> {
  const missing = await lookForSshfs();
  if (!missing || process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) return missing;
  process.stderr.write(`installing sshfs and openssh-server for the multi-host tests (${missing})\n`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (...args: string[]) => run('apt-get', args, { env, maxBuffer: 64 * 1024 * 1024 });
  await apt('update').catch(() => undefined);
  await apt('install', '-y', '--no-install-recommends', 'sshfs', 'openssh-server', 'openssh-client').catch(
    (err: Error) => process.stderr.write(`apt-get install failed: ${err.message}\n`),
  );
  return lookForSshfs();
}

async function lookForSshfs(): Promise<string | null> {
  const missing: string[] = [];
  for (const [bin, pkg] of [
    ['sshfs', 'sshfs'],
    ['ssh', 'openssh-client'],
    ['ssh-keygen', 'openssh-client'],
    ['fusermount', 'fuse3'],
  ] as const) {
    if (
      !(await run('sh', ['-c', `command -v ${bin}`]).then(
        () => true,
        () => false,
      ))
    )
      missing.push(`${bin} (package ${pkg})`);
  }
  if (!existsSync(SSHD)) missing.push(`${SSHD} (package openssh-server)`);
  return missing.length
    ? `missing ${missing.join(', ')}: install with \`apt-get install -y sshfs openssh-server\``
    : null;
}

/** A running private sshd. */
export interface SshServer {
  port: number;
  /** sshfs arguments that log in to it with the throwaway key (`-p`, `-F`, `-o ...`). */
  sshfsArgs: string[];
  /** `user@127.0.0.1`. */
  target: string;
  stop(): Promise<void>;
}

/** Starts sshd on 127.0.0.1 at a free port with a throwaway host key, accepting only a throwaway client key. */
export async function startSshServer(): Promise<SshServer> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-sshd-'));
  try {
    await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'host_key')]);
    await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'client_key')]);
    await run('cp', [join(dir, 'client_key.pub'), join(dir, 'authorized_keys')]);
    if (userInfo().uid === 0 && !existsSync('/run/sshd')) mkdirSync('/run/sshd', { mode: 0o755 }); // sshd's privilege separation directory
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      writeFileSync(join(dir, 'sshd_config'), sshdConfig(dir, port));
      const child = spawn(SSHD, ['-D', '-e', '-f', join(dir, 'sshd_config')], { stdio: ['ignore', 'ignore', 'pipe'] });
      const started = await listening(child);
      if (started === true) return toServer(dir, port, child);
      if (attempt === 3) throw new Error(`sshd did not start: ${started}`);
    }
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

/** A mounted sshfs. */
export interface Mount {
  path: string;
  unmount(): Promise<void>;
}

/** Mounts `remote` (an absolute path on the server) at `at` with sshfs and the given `-o` options. */
export async function mountSshfs(
  server: SshServer,
  remote: string,
  at: string,
  options: string[] = [],
): Promise<Mount> {
  mkdirSync(at, { recursive: true });
  await run(
    'sshfs',
    [...server.sshfsArgs, ...options.flatMap((option) => ['-o', option]), `${server.target}:${remote}`, at],
    { timeout: 20_000 },
  );
  return { path: at, unmount: () => unmount(at) };
}

// --- internal ---

function sshdConfig(dir: string, port: number): string {
  return [
    `Port ${port}`,
    'ListenAddress 127.0.0.1',
    `HostKey ${join(dir, 'host_key')}`,
    `PidFile ${join(dir, 'sshd.pid')}`,
    `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
    `AllowUsers ${userInfo().username}`,
    'PermitRootLogin prohibit-password',
    'PasswordAuthentication no',
    'KbdInteractiveAuthentication no',
    'UsePAM no',
    'StrictModes no',
    'MaxSessions 50',
    'MaxStartups 50',
    'Subsystem sftp internal-sftp',
    'LogLevel INFO',
    '',
  ].join('\n');
}

/** Resolves true once sshd says it listens, else with what it said before exiting. */
function listening(child: ChildProcess): Promise<true | string> {
  return new Promise((resolve) => {
    let said = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve(`no "Server listening" within 10 s: ${said}`);
    }, 10_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      said += chunk.toString();
      if (/Server listening on 127\.0\.0\.1/.test(said)) {
        clearTimeout(timer);
        resolve(true);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(`sshd exited with ${code}: ${said.trim()}`);
    });
  });
}

function toServer(dir: string, port: number, child: ChildProcess): SshServer {
  const exited = new Promise<void>((resolve) =>
    child.exitCode !== null ? resolve() : child.once('exit', () => resolve()),
  );
  const sshfsArgs = [
    '-p',
    String(port),
    '-F',
    '/dev/null',
    '-o',
    `IdentityFile=${join(dir, 'client_key')}`,
    '-o',
    'IdentitiesOnly=yes',
    '-o',
    'StrictHostKeyChecking=no',
    '-o',
    'UserKnownHostsFile=/dev/null',
    '-o',
    'BatchMode=yes',
    '-o',
    'LogLevel=ERROR',
  ];
  return {
    port,
    sshfsArgs,
    target: `${userInfo().username}@127.0.0.1`,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `fusermount -u`, retried while the mount is busy (a process still closing a file on it); lazily detached as a last resort. */
async function unmount(at: string): Promise<void> {
  for (let attempt = 1; attempt <= 20; attempt++) {
    try {
      await run('fusermount', ['-u', at]);
      return;
    } catch (err) {
      if (!/busy/i.test(String((err as { stderr?: string }).stderr ?? err))) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  await run('fusermount', ['-u', '-z', at]).catch(() => undefined);
}
