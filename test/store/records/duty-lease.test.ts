import { spawn } from 'node:child_process';
import { hostname } from 'node:os';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { claimDuty, readDuty, releaseDuty, saveDutyState } from '../../../lib/store/records/duty-lease.js';
import { toPaths } from '../../../lib/store/disk/paths.js';
import { initTree } from '../../../lib/store/commit/store.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';

const TTL = 45_000;
const T0 = new Date('2026-11-21T10:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const here = { host: hostname(), pid: process.pid };
const remote = { host: 'other-host.example', pid: 4242 };

async function tree() {
  const paths = toPaths(tempRoot());
  await initTree(paths);
  return paths;
}

const claim = suite('store.claimDuty');
claim.after.each(cleanRoots);

claim('the first daemon takes a duty nobody held and records itself in tasks/.duties/', async () => {
  const paths = await tree();
  const result = await claimDuty(paths, 'sla', { self: here, now: T0, ttlMs: TTL });
  assert.equal([result.held, result.tookOver], [true, true]);
  assert.equal(await readDuty(paths, 'sla'), { duty: 'sla', owner: here, renewedAt: T0.toISOString() });
  const renewed = await claimDuty(paths, 'sla', { self: here, now: at(10_000), ttlMs: TTL });
  assert.equal([renewed.held, renewed.tookOver, renewed.record?.renewedAt], [true, false, at(10_000).toISOString()]);
});

claim(
  'another daemon does not take a duty its owner renewed within ttlMs, and takes it once the owner lapses, with the state the owner saved',
  async () => {
    const paths = await tree();
    await claimDuty(paths, 'murmur.core', { self: remote, now: T0, ttlMs: TTL });
    assert.ok(
      await saveDutyState(paths, 'murmur.core', { self: remote, now: at(1000), state: { lastReviewAt: 'then' } }),
    );
    const early = await claimDuty(paths, 'murmur.core', { self: here, now: at(TTL - 1), ttlMs: TTL });
    assert.equal([early.held, early.record?.owner], [false, remote]);
    assert.not.ok(
      await saveDutyState(paths, 'murmur.core', { self: here, now: at(TTL - 1), state: { mine: true } }),
      'a daemon that does not hold it saves nothing',
    );
    const late = await claimDuty(paths, 'murmur.core', { self: here, now: at(TTL + 1), ttlMs: TTL });
    assert.equal([late.held, late.tookOver, late.record?.state], [true, true, { lastReviewAt: 'then' }]);
    const back = await claimDuty(paths, 'murmur.core', { self: remote, now: at(TTL + 2), ttlMs: TTL });
    assert.equal([back.held, back.record?.owner], [false, here], 'the lapsed owner lost it');
  },
);

claim(
  'a duty whose owner is a dead process of this host is taken at once; a released duty at the next claim',
  async () => {
    const paths = await tree();
    const child = spawn(process.execPath, ['-e', '']);
    const pid = child.pid!;
    await new Promise((resolve) => child.once('close', resolve));
    await claimDuty(paths, 'sla', { self: { host: hostname(), pid }, now: T0, ttlMs: TTL });
    assert.equal(
      (await claimDuty(paths, 'sla', { self: remote, now: at(1), ttlMs: TTL })).held,
      true,
      'its owner is gone',
    );
    await releaseDuty(paths, 'sla', remote);
    assert.equal((await claimDuty(paths, 'sla', { self: here, now: at(2), ttlMs: TTL })).held, true, 'released');
  },
);

claim.run();
