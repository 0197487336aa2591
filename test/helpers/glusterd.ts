// glusterd and the gluster command line for the GlusterFS helpers (gluster.ts): glusterd started in the
// foreground with its own volfile, the volume commands, brick processes and FUSE mounts taken down.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

// Debian installs glusterd, gluster and glusterfs in /usr/sbin, which a non-login PATH may lack.
for (const dir of ['/usr/sbin', '/sbin']) {
  if (!(process.env.PATH ?? '').split(':').includes(dir)) process.env.PATH = `${process.env.PATH ?? ''}:${dir}`;
}

/** The gluster command line in script mode (no prompts), with a minute's timeout. */
export function gluster(...args: string[]): Promise<{ stdout: string }> {
  return run('gluster', ['--mode=script', ...args], { timeout: 60_000 });
}

/** Whether a glusterd answers on this machine. */
export async function isGlusterdUp(): Promise<boolean> {
  return gluster('volume', 'list').then(
    () => true,
    () => false,
  );
}

/** glusterd in the foreground, its working directory, log and pid file under `dir`; resolves once it answers. */
export async function startGlusterd(dir: string): Promise<ChildProcess> {
  mkdirSync(`${dir}/glusterd`, { recursive: true });
  writeFileSync(
    `${dir}/glusterd.vol`,
    [
      'volume management',
      '    type mgmt/glusterd',
      `    option working-directory ${dir}/glusterd`,
      '    option transport-type socket',
      '    option transport.socket.listen-port 24007',
      '    option ping-timeout 0',
      '    option event-threads 1',
      'end-volume',
      '',
    ].join('\n'),
  );
  const child = spawn(
    'glusterd',
    ['-N', '-f', `${dir}/glusterd.vol`, '-l', `${dir}/glusterd.log`, '-p', `${dir}/glusterd.pid`],
    { stdio: 'ignore' },
  );
  const exited = new Promise<string>((resolve) =>
    child.once('exit', (code) => resolve(`glusterd exited with ${code}`)),
  );
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

/** SIGTERM, then SIGKILL after 10 s, and waits for the exit. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Brick processes of a volume whose stop failed (their pid files are in glusterd's run directory). */
export function killBricks(name: string): void {
  const dir = `/var/run/gluster/vols/${name}`;
  if (!existsSync(dir)) return;
  for (const file of readdirSync(dir).filter((entry) => entry.endsWith('.pid'))) {
    const pid = Number.parseInt(readFileSync(join(dir, file), 'utf8'), 10);
    if (pid > 0) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* gone already */
      }
    }
  }
  rmSync(dir, { recursive: true, force: true });
}

/** `umount`, retried while the mount is busy; lazily detached as a last resort. */
export async function unmount(at: string): Promise<void> {
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

// --- internal ---

function tail(file: string): string {
  return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').slice(-5).join('\n') : '(no log)';
}
