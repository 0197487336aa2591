import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { networkInterfaces } from 'node:os';

/** A TCP port that was free a moment ago (bound on 127.0.0.1:0, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * The TCP sockets a process listens on, as `address:port` (Linux: its fds matched against
 * /proc/net/tcp and tcp6 by inode). IPv4 addresses are dotted; IPv6 ones are the kernel's hex.
 */
export function listeningSockets(pid: number): string[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (match) inodes.add(match[1]!);
    } catch {
      // the fd closed meanwhile
    }
  }
  const out: string[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').trim().split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      const [address, portHex] = cols[1]!.split(':');
      if (cols[3] !== '0A' || !inodes.has(cols[9]!)) continue; // 0A: LISTEN
      const host =
        address!.length === 8
          ? address!
              .match(/../g)!
              .reverse()
              .map((b) => Number.parseInt(b, 16))
              .join('.')
          : address!;
      out.push(`${host}:${Number.parseInt(portHex!, 16)}`);
    }
  }
  return out.sort();
}

/** The host's addresses other than loopback (IPv4 and IPv6). */
export function externalAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((list) =>
    (list ?? []).filter((i) => !i.internal && !i.address.startsWith('fe80')).map((i) => i.address),
  );
}
