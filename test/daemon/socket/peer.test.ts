import { spawn } from 'node:child_process';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { findSocketPeers } from '../../../lib/daemon/socket/peer.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';

// The process at the other end of a Unix socket connection, as the kernel tells it (`ss`, Linux).

let server: Server | null = null;

/** Listens on a socket under a fresh root (its path holding a space); resolves with the first connection accepted. */
async function listen(): Promise<{ path: string; accepted: Promise<Socket> }> {
  const path = `${tempRoot()}/a socket.sock`;
  let accept!: (socket: Socket) => void;
  const accepted = new Promise<Socket>((resolve) => (accept = resolve));
  server = createServer(accept);
  await new Promise<void>((resolve) => server!.listen(path, resolve));
  return { path, accepted };
}

const peers = suite('daemon.findSocketPeers');
peers.after.each(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = null;
  cleanRoots();
});

peers('names the process that connected: another process, not this one', async () => {
  const { path, accepted } = await listen();
  const child = spawn(
    process.execPath,
    ['-e', `require('node:net').connect(${JSON.stringify(path)}); setTimeout(() => {}, 60000)`],
    { stdio: 'ignore' },
  );
  try {
    const socket = await accepted;
    assert.equal(await findSocketPeers(socket), [child.pid]);
    socket.destroy();
  } finally {
    child.kill('SIGKILL');
  }
});

peers('is null for a socket with no descriptor of its own (nothing to ask about)', async () => {
  const { accepted, path } = await listen();
  const client = connect(path);
  const socket = await accepted;
  socket.destroy();
  assert.is(await findSocketPeers(socket), null);
  client.destroy();
});

peers.run();
