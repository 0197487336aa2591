import { spawn } from 'node:child_process';
import { describeError } from '../core/errors.js';

/** How one attempt went: `ok` for a 2xx (a command: exit 0); `status` the HTTP status when one came. */
export interface SendResult {
  ok: boolean;
  status?: number;
  error?: string;
}

/** One HTTP POST: the URL, the body, its headers, the time allowed, and a signal that ends it early (a stop). */
export interface HttpSend {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** How much of a response body is read (for the error of a failed attempt); the rest is never read. */
export const RESPONSE_BYTES = 2048;

/**
 * POSTs a body with Node's fetch. Redirects are not followed (a 3xx is a failed attempt naming where it pointed), the
 * attempt is aborted at `timeoutMs` (connecting, waiting and reading together), and at most `RESPONSE_BYTES` of the
 * answer are read.
 */
export async function postHttp(send: HttpSend): Promise<SendResult> {
  // A controller of its own with a plain timer, not `AbortSignal.any([AbortSignal.timeout()])`: on Node 20 a
  // combined signal can be collected before its timeout fires, and a hung receiver would then hold the attempt forever.
  const controller = new AbortController();
  const { signal } = controller;
  const timer = setTimeout(() => controller.abort(), send.timeoutMs);
  const stop = () => controller.abort();
  if (send.signal?.aborted) stop();
  else send.signal?.addEventListener('abort', stop, { once: true });
  try {
    const res = await fetch(send.url, {
      method: 'POST',
      body: send.body,
      headers: send.headers,
      redirect: 'manual',
      signal,
    });
    const text = await readSome(res, RESPONSE_BYTES);
    if (res.status >= 200 && res.status < 300) return { ok: true, status: res.status };
    const location = res.headers.get('location');
    const said = location && res.status >= 300 && res.status < 400 ? ` (redirect to ${location} not followed)` : '';
    return { ok: false, status: res.status, error: `HTTP ${res.status}${said}${text ? `: ${oneLine(text)}` : ''}` };
  } catch (err) {
    if (signal.aborted && !send.signal?.aborted) return { ok: false, error: `no answer within ${send.timeoutMs} ms` };
    return { ok: false, error: describeCause(err) };
  } finally {
    clearTimeout(timer);
    send.signal?.removeEventListener('abort', stop);
  }
}

/** One run of a command: the argv, the notification's JSON for its stdin, the time allowed, a signal that ends it. */
export interface CommandSend {
  argv: readonly string[];
  input: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * Runs a command without a shell in its own process group, the notification on its stdin; exit 0 is delivered. At
 * `timeoutMs` (or on `signal`) the whole group is killed (SIGKILL) and the attempt failed. Its output is kept only
 * as far as `RESPONSE_BYTES` of stderr, for the error.
 */
export function runCommand(send: CommandSend): Promise<SendResult> {
  return new Promise((resolve) => {
    let timedOut = false;
    let stderr = '';
    const child = spawn(send.argv[0]!, send.argv.slice(1), {
      detached: true,
      env: send.env,
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    const kill = () => {
      if (child.pid) signalGroup(child.pid);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, send.timeoutMs);
    send.signal?.addEventListener('abort', kill, { once: true });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < RESPONSE_BYTES) stderr += chunk.toString('utf8').slice(0, RESPONSE_BYTES - stderr.length);
    });
    child.stdin.on('error', () => undefined); // a command that does not read its stdin is fine
    child.stdin.end(send.input);
    const finish = (result: SendResult) => {
      clearTimeout(timer);
      send.signal?.removeEventListener('abort', kill);
      kill(); // nothing it started outlives it
      resolve(result);
    };
    child.once('error', (err) => finish({ ok: false, error: `cannot run ${send.argv[0]}: ${err.message}` }));
    child.once('exit', (code, signal) => {
      if (timedOut) return finish({ ok: false, error: `killed after ${send.timeoutMs} ms without exiting` });
      if (code === 0) return finish({ ok: true });
      const how = signal ? `killed by ${signal}` : `exit code ${code}`;
      finish({ ok: false, error: `${how}${stderr.trim() ? `: ${oneLine(stderr)}` : ''}` });
    });
  });
}

// --- internal ---

function signalGroup(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // gone already
  }
}

async function readSome(res: Response, max: number): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < max) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, max).toString('utf8');
}

function describeCause(err: unknown): string {
  const cause = (err as { cause?: unknown } | null)?.cause;
  return cause ? `${describeError(err)} (${describeError(cause)})` : describeError(err);
}

function oneLine(text: string): string {
  return text
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/[\u0000-\u001f\u007f]/g, '?')
    .slice(0, 300);
}
