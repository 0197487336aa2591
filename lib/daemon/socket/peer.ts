import { execFile } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import type { Socket } from 'node:net';

/** How long `ss` may take before the peer counts as unknown. */
const SS_TIMEOUT_MS = 3000;

/**
 * The processes at the other end of a connection to the daemon's Unix socket, or null where that
 * cannot be told. Node does not expose the peer's credentials, so the kernel is asked through
 * `ss -xpn` (iproute2, Linux): the line of this end's inode names the peer's inode, and the line of
 * the peer's inode the processes holding it.
 */
export async function findSocketPeers(socket: Socket): Promise<number[] | null> {
  const inode = toInode(socket);
  if (inode === null) return null;
  const table = await listUnixSockets();
  if (!table) return null;
  const peer = table.get(inode)?.peer;
  return peer === undefined ? null : (table.get(peer)?.pids ?? null);
}

// --- internal ---

interface UnixSocketRow {
  peer: string;
  pids: number[];
}

/** The inode of the socket's descriptor (`/proc/self/fd/<fd>` reads `socket:[<inode>]`). */
function toInode(socket: Socket): string | null {
  const fd = (socket as unknown as { _handle?: { fd?: number } })._handle?.fd;
  if (typeof fd !== 'number' || fd < 0) return null;
  try {
    return /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/self/fd/${fd}`))?.[1] ?? null;
  } catch {
    return null;
  }
}

/**
 * Every Unix stream socket: `u_str ESTAB 0 0 <local> <inode> <peer address> <peer inode>
 * users:(("name",pid=N,fd=M),...)`.
 */
function listUnixSockets(): Promise<Map<string, UnixSocketRow> | null> {
  return new Promise((resolve) => {
    execFile('ss', ['-xpn'], { timeout: SS_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 }, (err, stdout) => {
      if (err) return resolve(null);
      const table = new Map<string, UnixSocketRow>();
      for (const line of stdout.split('\n')) {
        // Read from the end: a local address (a path) may hold spaces.
        const match = line.startsWith('u_str') ? /\s(\d+)\s+\S+\s+(\d+)\s*(users:.*)?$/.exec(line.trimEnd()) : null;
        if (!match) continue;
        const pids = [...(match[3] ?? '').matchAll(/pid=(\d+)/g)].map((found) => Number(found[1]));
        table.set(match[1]!, { peer: match[2]!, pids });
      }
      resolve(table);
    });
  });
}
