import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { isSvcError } from '../../../lib/core/errors.js';
import { toPaths } from '../../../lib/store/disk/paths.js';
import { answerOnce } from '../../../lib/store/records/request-memory.js';
import { pruneRequests } from '../../../lib/store/records/request-prune.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';

const call = { key: 'k1', tool: 'operator_task_create', params: { title: 'x' } };
const ok = (n: number) => async () => ({ status: 200, body: { ok: true, result: n } });

const memory = suite('store.answerOnce');
memory.after.each(cleanRoots);

memory('acts once; a repeat gets the first answer; a new key acts again', async () => {
  const root = tempRoot();
  let runs = 0;
  const act = async () => ({ status: 200, body: { ok: true, result: ++runs } });
  assert.equal(await answerOnce(root, call, { act }), { status: 200, body: { ok: true, result: 1 }, repeated: false });
  assert.equal(await answerOnce(root, call, { act }), { status: 200, body: { ok: true, result: 1 }, repeated: true });
  assert.equal((await answerOnce(root, { ...call, key: 'k2' }, { act })).body, { ok: true, result: 2 });
  assert.is(runs, 2);
});

memory('a first call cut off by the death of its process is reported as unknown, never run again', async () => {
  const root = tempRoot();
  const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
  const dir = toPaths(root).requests;
  mkdirSync(dir, { recursive: true });
  const fingerprint = createHash('sha256')
    .update(JSON.stringify([call.tool, call.params]))
    .digest('hex');
  const file = join(dir, `${createHash('sha256').update(call.key).digest('hex').slice(0, 40)}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      ...call,
      fingerprint,
      owner: { host: hostname(), pid: dead },
      startedAt: '2026-11-21T10:00:00.000Z',
    }),
  );
  let ran = false;
  const err = await answerOnce(root, call, {
    act: async () => {
      ran = true;
      return { status: 200, body: {} };
    },
  }).then(
    () => null,
    (e: unknown) => e,
  );
  assert.ok(isSvcError(err, 'unavailable'), String(err));
  assert.match(
    (err as Error).message,
    `was cut off: its process (pid ${dead} on ${hostname()}) ended before it answered, so it may or may not have been applied`,
  );
  assert.not.ok(ran);
});

memory('answers meaning nothing was done (locked, no_space) are not kept: the retry acts', async () => {
  const root = tempRoot();
  const locked = { status: 409, body: { ok: false, error: { code: 'locked', message: 'held' } } };
  assert.is((await answerOnce(root, call, { act: async () => locked })).status, 409);
  assert.equal(await answerOnce(root, call, { act: ok(7) }), {
    status: 200,
    body: { ok: true, result: 7 },
    repeated: false,
  });
});

const prune = suite('store.pruneRequests');
prune.after.each(cleanRoots);

prune('removes records past the TTL, then the oldest past the count and byte limits', async () => {
  const root = tempRoot();
  for (let i = 0; i < 6; i++) await answerOnce(root, { ...call, key: `p${i}` }, { act: ok(i) });
  const dir = toPaths(root).requests;
  const files = readdirSync(dir).sort();
  const now = new Date('2026-11-21T12:00:00.000Z');
  files.forEach((name, i) => utimesSync(join(dir, name), now, new Date(now.getTime() - (10 - i) * 60_000)));
  assert.is(
    await pruneRequests(root, now, { ttlMs: 8.5 * 60_000, maxRecords: 100, maxBytes: 1e9 }),
    2,
    'ages 10 and 9 min are past the TTL',
  );
  assert.is(await pruneRequests(root, now, { ttlMs: 3_600_000, maxRecords: 3, maxBytes: 1e9 }), 1);
  assert.equal(readdirSync(dir).sort(), files.slice(3), 'the oldest went first');
  assert.is(await pruneRequests(root, now, { ttlMs: 3_600_000, maxRecords: 100, maxBytes: 1 }), 3);
});

prune('removes the temporary files of killed writes once they are ten minutes old', async () => {
  const root = tempRoot();
  await answerOnce(root, call, { act: ok(1) });
  const dir = toPaths(root).requests;
  const [record] = readdirSync(dir);
  const now = new Date();
  writeFileSync(join(dir, `${record}.123.abc.new`), 'old');
  utimesSync(join(dir, `${record}.123.abc.new`), now, new Date(now.getTime() - 11 * 60_000));
  writeFileSync(join(dir, `${record}.456.def.new`), 'fresh: maybe still being written');
  assert.is(await pruneRequests(root, now), 1);
  assert.equal(readdirSync(dir).sort(), [record, `${record}.456.def.new`].sort());
});

memory.run();
prune.run();
