import { connect } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { WebAddress } from '../../lib/net/protocol/bodies.js';
import { call, type ChildDaemon } from '../helpers/daemon.js';
import { cleanRoots } from '../helpers/root.js';
import { authed, startBoardProcess, webRequest } from '../helpers/web.js';

// The board's guard against requests no browser sends, on a real daemon process: whatever a
// request carries, it is answered (400, 401, 404, 421) and the daemon serves on (docs/web-board.md).
const guard = suite('web.guard');
let daemon: ChildDaemon | undefined;
guard.after.each(async () => {
  await daemon?.kill();
  cleanRoots();
});

async function boardDaemon(): Promise<{ root: string; web: WebAddress }> {
  const started = await startBoardProcess();
  daemon = started.daemon;
  return started;
}

/** Sends `head` as is (node's client would refuse most of these) and reads the status of the answer (0: none in 5 s). */
function raw(port: number, head: string): Promise<number | null> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('connect', () => socket.write(Buffer.from(head, 'latin1')));
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
      if (answer.includes('\r\n\r\n')) socket.destroy(); // the status line and headers are in
    });
    socket.on('error', () => undefined);
    // every head here is whole: one still unanswered after 5 s is held, which the fuzz reports
    socket.setTimeout(5000, () => {
      console.log(`  unanswered: ${JSON.stringify(head)}`);
      answer = 'held';
      socket.destroy();
    });
    socket.on('close', () => resolve(answer === 'held' ? 0 : Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]) || null));
  });
}

/** The daemon still runs and answers its socket's `/healthz`, and the board its operator. */
async function stillServing(root: string, web: WebAddress): Promise<void> {
  assert.is(daemon!.child.exitCode, null, `the daemon exited:\n${daemon!.output()}`);
  assert.is((await call(root, 'GET', '/healthz')).status, 200);
  assert.is((await webRequest(web.port, 'GET', '/api/meta', authed(web.token, web.port))).status, 200);
}

guard(
  'a token of the right length in characters but not in bytes is refused in every place a token goes, and the daemon serves on',
  async () => {
    const { root, web } = await boardDaemon();
    const forged = `é${'a'.repeat(web.token.length - 1)}`; // 43 characters, 44 bytes
    assert.is(forged.length, web.token.length);
    const host = `Host: 127.0.0.1:${web.port}`;
    const heads = [
      `GET /?token=${encodeURIComponent(forged)} HTTP/1.1\r\n${host}\r\n\r\n`,
      `GET /api/meta HTTP/1.1\r\n${host}\r\nx-svc-token: ${forged}\r\n\r\n`,
      `GET /api/meta HTTP/1.1\r\n${host}\r\nCookie: svc_web_${web.port}=${forged}\r\n\r\n`,
      `GET /metrics HTTP/1.1\r\n${host}\r\nAuthorization: Bearer ${forged}\r\n\r\n`,
    ];
    for (const head of heads) {
      // the header forms go out as UTF-8 bytes, as a browser or curl sends them
      assert.is(await raw(web.port, Buffer.from(head, 'utf8').toString('latin1')), 401, head);
    }
    await stillServing(root, web);
  },
);

guard('a target that is not a path (`//`, `/\\`, `*`, an absolute URL) is a 400, not a crash', async () => {
  const { root, web } = await boardDaemon();
  for (const target of ['//', '/\\', '//evil.example/', '/\\\\x', '*', 'http://127.0.0.1/']) {
    const status = await raw(
      web.port,
      `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${web.port}\r\nCookie: svc_web_${web.port}=${web.token}\r\n\r\n`,
    );
    assert.ok(status !== null && status >= 400 && status < 500, `${target}: ${status}`);
  }
  await stillServing(root, web);
});

guard('a fuzz of 3,000 malformed tokens, cookies, headers and paths leaves the daemon answering', async () => {
  const { root, web } = await boardDaemon();
  const random = seeded(27);
  const statuses = new Map<number | null, number>();
  for (let round = 0; round < 150; round++) {
    const heads = Array.from({ length: 20 }, () => fuzzedHead(random, web));
    const got = await Promise.all(heads.map((head) => raw(web.port, head)));
    for (const status of got) statuses.set(status, (statuses.get(status) ?? 0) + 1);
  }
  console.log(
    `  3,000 fuzzed requests answered: ${[...statuses]
      .sort()
      .map(([status, n]) => `${status ?? 'closed'} x${n}`)
      .join(', ')}`,
  );
  assert.is(statuses.get(500) ?? 0, 0, `no request is a 500 (statuses: ${JSON.stringify([...statuses])})`);
  assert.is(statuses.get(0) ?? 0, 0, 'every request is answered');
  await stillServing(root, web);
});

guard.run();

// --- internal ---

/** A deterministic source of numbers in [0, 1), so a failing head can be found again. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

const PATHS = [
  '/',
  '//',
  '/\\',
  '/task/%',
  '/task/%E0%A4%A',
  '/task/%00',
  '/api/task/..%2F..%2Fetc',
  '/api/task/%ff/log',
  '/assets/%2e%2e%2fpage.ts',
  '/api/tasks?status=done&offset=-1&limit=1e309',
  '/api/board/stream?last=%ZZ',
  '/?token=%',
  '/?token=%C3%A9',
  '/?as=%00&token=x',
  '/agents?#',
  '/api/action/%',
  '/metrics?format=json',
];
const CHARS = ['a', 'é', '\u00ff', '%', '\u0000'.replace('\u0000', '%00'), ';', '=', ' ', '"', '\\', '日'];

function fuzzedHead(random: () => number, web: WebAddress): string {
  const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)]!;
  // a third carry the real token, so the malformed paths and bodies reach the routes behind the guard
  const token =
    random() < 0.35
      ? web.token
      : Array.from({ length: Math.floor(random() * 90) }, () =>
          random() < 0.7 ? web.token[Math.floor(random() * web.token.length)] : pick(CHARS),
        ).join('');
  const host = pick([`127.0.0.1:${web.port}`, `localhost:${web.port}`, `127.0.0.1:${web.port}`, 'evil.example', '']);
  const lines = [
    `${pick(['GET', 'POST', 'HEAD', 'OPTIONS'])} ${pick(PATHS)}${random() < 0.3 ? `?token=${encodeURIComponent(token)}` : ''} HTTP/1.1`,
    `Host: ${host}`,
  ];
  if (random() < 0.5)
    lines.push(
      `Cookie: ${pick([`svc_web_${web.port}=${token}`, `${token}`, `=;;=${token}`, `svc_web_as_${web.port}=${token}; svc_web_${web.port}=${token}`])}`,
    );
  if (random() < 0.4) lines.push(`x-svc-token: ${token}`);
  if (random() < 0.4) lines.push(`Authorization: ${pick(['Bearer ', 'bearer ', 'Basic '])}${token}`);
  if (random() < 0.2) lines.push(`Last-Event-ID: ${token}`);
  if (random() < 0.2) lines.push('Content-Type: application/json', 'Content-Length: 5', '', '{"a":');
  else lines.push('', '');
  return Buffer.from(lines.join('\r\n'), 'utf8').toString('latin1');
}
