// A hostile client in its own process: `node --import tsx hostile-client.ts '<plan json>'`. It keeps
// `count` connections of one kind open to a Unix socket (or a port of 127.0.0.1), opening a new one whenever the daemon
// closes one (`reconnect`), and prints a JSON line of what happened to them every 100 ms while that
// changes: {open, opened, closed, statuses: {"429": n, ...}, retryAfter: n}.
import { connect } from 'node:net';

/** What the client does on each connection. */
export type HostileKind =
  | 'trickle-head' // a request head, a byte every `everyMs`, never finished
  | 'trickle-body' // a whole head announcing 1000 bytes of body, then a byte every `everyMs`
  | 'changes' // GET /v1/tasks/changes waiting for a version that never comes
  | 'spawns' // GET /v1/spawns/wait as plugin `hostile`
  | 'board-stream'; // GET /api/board/stream of the web board, with `headers` (its token)

/** The plan of one hostile client. */
export interface HostilePlan {
  /** A Unix socket, or `port:<n>` for 127.0.0.1:<n> (the web board). */
  socket: string;
  /** Header lines added to each request head (`Host` is the board's when `socket` is a port). */
  headers?: string[];
  kind: HostileKind;
  count: number;
  everyMs: number;
  reconnect: boolean;
}

const plan = JSON.parse(process.argv[2] ?? '{}') as HostilePlan;
const stats = { open: 0, opened: 0, closed: 0, statuses: {} as Record<string, number>, retryAfter: 0 };
let shown = '';

function open(): void {
  const port = /^port:(\d+)$/.exec(plan.socket)?.[1];
  const socket = port ? connect(Number(port), '127.0.0.1') : connect(plan.socket);
  let answer = '';
  let timer: NodeJS.Timeout | undefined;
  let connected = false;
  let counted = false;
  stats.opened++;
  socket.on('connect', () => {
    connected = true;
    stats.open++;
    socket.write(headOf(plan));
    if (plan.kind.startsWith('trickle'))
      timer = setInterval(() => socket.write(plan.kind === 'trickle-head' ? 'a' : 'x'), plan.everyMs);
  });
  socket.on('data', (chunk: Buffer) => {
    answer += chunk.toString();
    const status = /^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1];
    if (!status || !answer.includes('\r\n\r\n') || counted) return;
    counted = true;
    stats.statuses[status] = (stats.statuses[status] ?? 0) + 1;
    if (plan.kind === 'board-stream' && status === '200') return; // a stream is held open
    if (/\r\nretry-after: \d+\r\n/i.test(answer)) stats.retryAfter++;
    socket.destroy(); // one answer per connection: the next one asks again
  });
  socket.on('error', () => undefined); // resets by the daemon are expected
  socket.on('close', () => {
    clearInterval(timer);
    if (connected) stats.open--;
    stats.closed++;
    if (plan.reconnect) setTimeout(open, 20);
  });
}

const HEADS: Record<HostileKind, string> = {
  'trickle-head': 'GET /status HTTP/1.1\r\nHost: svc\r\nX-Slow: ',
  'trickle-body':
    'POST /v1/tool/invoke HTTP/1.1\r\nHost: svc\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"tool":"test_echo","params":{"text":"',
  changes: 'GET /v1/tasks/changes?after=999999999&waitMs=25000 HTTP/1.1\r\nHost: svc\r\n\r\n',
  spawns: 'GET /v1/spawns/wait HTTP/1.1\r\nHost: svc\r\nx-svc-plugin: hostile\r\n\r\n',
  'board-stream': 'GET /api/board/stream HTTP/1.1\r\nHost: svc\r\n\r\n',
};

/** The plan's head: its kind's, for the board's Host when on a port, with the plan's own headers. */
function headOf({ kind, socket, headers = [] }: HostilePlan): string {
  const host = socket.startsWith('port:') ? `127.0.0.1:${socket.slice(5)}` : 'svc';
  return HEADS[kind].replace('Host: svc\r\n', [`Host: ${host}`, ...headers, ''].join('\r\n'));
}

for (let i = 0; i < plan.count; i++) open();
setInterval(() => {
  const line = JSON.stringify(stats);
  if (line !== shown) process.stdout.write(`${line}\n`);
  shown = line;
}, 100);
