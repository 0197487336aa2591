import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { readFile, unlink } from 'node:fs/promises';
import { hasCode, SvcError } from '../../core/errors.js';
import { createExclusive, ensureDir, writeDurable } from '../../fs/atomic.js';
import { isProcessAlive } from '../../fs/process.js';
import { toPaths } from '../disk/paths.js';
import { pruneRequestsSoon } from './request-prune.js';

/** An answer as the caller gets it: the HTTP status and the JSON body. */
export interface Answer {
  status: number;
  body: unknown;
}

/** One call named by a request id. */
export interface RequestCall {
  key: string;
  tool: string;
  params: unknown;
}

/** Options of `answerOnce`. */
export interface AnswerOnceOptions {
  /** The call's work, run at most once per request id. */
  act: () => Promise<Answer>;
  now?: () => Date;
  /** How long a repeat waits for a first call still running before `unavailable` (default 60 s). */
  waitMs?: number;
}

/**
 * Runs `act` once per request id (docs/daemon.md: retries that never duplicate). The first
 * call records itself in `data/requests/` before acting and its answer after; a repeat of the
 * same call gets that answer (`repeated`) instead of acting again, and one that arrives while the
 * first still runs, in any process, waits for it. A first call whose process died before it
 * answered may or may not have been applied: a repeat is told so and nothing is run again. An
 * answer that means nothing was done (`locked`, `unavailable`, `no_space`) is not remembered, so a
 * retry acts. The same id for another call is a `validation_error`.
 */
export async function answerOnce(
  root: string,
  call: RequestCall,
  options: AnswerOnceOptions,
): Promise<Answer & { repeated: boolean }> {
  const { act } = options;
  const now = options.now ?? (() => new Date());
  const dir = toPaths(root).requests;
  const file = join(dir, `${createHash('sha256').update(call.key).digest('hex').slice(0, 40)}.json`);
  const fingerprint = createHash('sha256')
    .update(JSON.stringify([call.tool, call.params ?? {}]))
    .digest('hex');
  const deadline = Date.now() + (options.waitMs ?? 60_000);
  for (;;) {
    const record: RequestRecord = {
      key: call.key,
      tool: call.tool,
      fingerprint,
      owner: { host: hostname(), pid: process.pid },
      startedAt: now().toISOString(),
    };
    if (await claim(dir, file, record)) {
      pruneRequestsSoon(root, now());
      return { ...(await actAndRecord({ file, record }, act, now)), repeated: false };
    }
    const found = await readRecord(file);
    if (!found) continue; // removed meanwhile (pruned, or an answer not remembered): claim it again
    if (found.fingerprint !== fingerprint) throw otherCall(call, found);
    if (found.answer) return { ...found.answer, repeated: true };
    if (isInterrupted(found, now())) throw interrupted(call, found);
    if (Date.now() > deadline) throw stillRunning(call, found);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

// --- internal ---

/** What `data/requests/<hash>.json` holds: the call, who runs it, and its answer once there is one. */
interface RequestRecord {
  key: string;
  tool: string;
  fingerprint: string;
  owner: { host: string; pid: number };
  startedAt: string;
  answeredAt?: string;
  answer?: Answer;
}

/** Codes of answers that mean nothing was applied: a retry should act, not get them again. */
const NOTHING_DONE = new Set(['locked', 'unavailable', 'no_space']);

/** A first call running on another host (whose pid cannot be checked) counts as interrupted after this long. */
const FOREIGN_RUNNING_MS = 10 * 60_000;

async function claim(dir: string, file: string, record: RequestRecord): Promise<boolean> {
  const text = `${JSON.stringify(record)}\n`;
  try {
    return await createExclusive(file, text);
  } catch (err) {
    if (!hasCode(err, 'ENOENT')) throw err;
    await ensureDir(dir, 0o700);
    return createExclusive(file, text);
  }
}

async function actAndRecord(
  { file, record }: { file: string; record: RequestRecord },
  act: () => Promise<Answer>,
  now: () => Date,
): Promise<Answer> {
  let answer: Answer;
  try {
    answer = await act();
  } catch (err) {
    await unlink(file).catch(() => undefined);
    throw err;
  }
  const code = (answer.body as { error?: { code?: string } } | null)?.error?.code;
  try {
    if (code && NOTHING_DONE.has(code)) await unlink(file);
    else await writeDurable(file, `${JSON.stringify({ ...record, answeredAt: now().toISOString(), answer })}\n`, 0o600);
  } catch {
    // not remembered (a full disk): the answer still goes out; a retry would act again
    await unlink(file).catch(() => undefined);
  }
  return answer;
}

async function readRecord(file: string): Promise<RequestRecord | null> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as RequestRecord;
  } catch (err) {
    if (hasCode(err, 'ENOENT')) return null;
    throw new SvcError('internal', `The request record ${file} cannot be read: ${(err as Error).message}.`, {
      hint: 'Remove the file; the call it names then runs again when retried.',
      cause: err,
    });
  }
}

function isInterrupted(record: RequestRecord, now: Date): boolean {
  if (record.owner.host === hostname()) return !isProcessAlive(record.owner.pid);
  return now.getTime() - Date.parse(record.startedAt) > FOREIGN_RUNNING_MS;
}

function otherCall(call: RequestCall, found: RequestRecord): SvcError {
  const what = found.tool === call.tool ? `${found.tool} with other parameters` : found.tool;
  return new SvcError(
    'validation_error',
    `Request id ${call.key} was first used for another call (${what}); a request id names one call.`,
    'To learn the outcome of the first call, run exactly that command ' +
      'again with this id; for a new call, leave --request-id out.',
  );
}

function interrupted(call: RequestCall, found: RequestRecord): SvcError {
  return new SvcError(
    'unavailable',
    `The call with request id ${call.key} (${found.tool}, started ` +
      `${found.startedAt}) was cut off: its process (pid ${found.owner.pid} ` +
      `on ${found.owner.host}) ended before it answered, so it may or ` +
      `may not have been applied; it is not run again under this id.`,
    'Check with `svc task list` or `svc events` whether the change ' +
      'is there; if not, run the command again without --request-id.',
  );
}

function stillRunning(call: RequestCall, found: RequestRecord): SvcError {
  return new SvcError(
    'unavailable',
    `The call with request id ${call.key} (${found.tool}) is still running (pid ` +
      `${found.owner.pid} on ${found.owner.host}, since ${found.startedAt}).`,
    'Run the same command again with the same --request-id in a moment to get its answer.',
  );
}
