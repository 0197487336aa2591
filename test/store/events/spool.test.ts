import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mergeEventSpool, spoolEventLines } from '../../../lib/store/events/spool.js';
import { readEvents } from '../../../lib/store/events/log.js';
import { toPaths } from '../../../lib/store/disk/paths.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';

const merge = suite('store.mergeEventSpool');
merge.after.each(cleanRoots);

const line = (type: string, timestamp: string) => `${JSON.stringify({ timestamp, type, actor: 't', payload: {} })}\n`;

merge(
  'appends spooled lines to the day file of each timestamp, oldest spool file first, and removes the files',
  async () => {
    const root = tempRoot();
    await spoolEventLines(root, line('a', '2026-11-21T23:59:59.000Z') + line('b', '2026-11-22T00:00:01.000Z'));
    await new Promise((done) => setTimeout(done, 2));
    await spoolEventLines(root, line('c', '2026-11-22T00:00:02.000Z') + 'torn{\n');
    assert.is(await mergeEventSpool(root), 3);
    assert.equal(
      (await readEvents(root)).map((e) => [e.type, e.timestamp.slice(0, 10)]),
      [
        ['a', '2026-11-21'],
        ['b', '2026-11-22'],
        ['c', '2026-11-22'],
      ],
    );
    assert.equal(readdirSync(toPaths(root).eventsSpool), []);
    assert.is(await mergeEventSpool(root), 0, 'nothing left to merge');
  },
);

merge('never appends a line twice when a merge was cut off after its append', async () => {
  const root = tempRoot();
  const paths = toPaths(root);
  mkdirSync(paths.events, { recursive: true });
  writeFileSync(paths.eventFile('2026-11-21'), line('a', '2026-11-21T10:00:00.000Z'));
  await spoolEventLines(root, line('a', '2026-11-21T10:00:00.000Z') + line('b', '2026-11-21T10:00:01.000Z'));
  assert.is(await mergeEventSpool(root), 1);
  assert.equal(
    (await readEvents(root)).map((e) => e.type),
    ['a', 'b'],
  );
});

merge('takes over the claim of a dead process and leaves the claim of a live one', async () => {
  const root = tempRoot();
  const dir = toPaths(root).eventsSpool;
  const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
  const claim = async (type: string, pid: number) => {
    const file = await spoolEventLines(root, line(type, '2026-11-21T10:00:00.000Z'));
    renameSync(file, `${file}.${hostname()}-${pid}.merging`);
    return `${file}.${hostname()}-${pid}.merging`;
  };
  await claim('dead', dead);
  const live = await claim('live', process.ppid);
  assert.is(await mergeEventSpool(root), 1);
  assert.equal(
    (await readEvents(root)).map((e) => e.type),
    ['dead'],
  );
  assert.equal(readdirSync(dir), [live.slice(dir.length + 1)], 'the live claim is left to its owner');
});

merge('a merge that fails puts the spool file back and throws', async () => {
  const root = tempRoot();
  const paths = toPaths(root);
  const file = await spoolEventLines(root, line('a', '2026-11-21T10:00:00.000Z'));
  writeFileSync(paths.events, 'not a directory\n');
  await mergeEventSpool(root).then(
    () => assert.unreachable('should fail'),
    (err: Error) => assert.match(err.message, /ENOTDIR/),
  );
  assert.ok(existsSync(file), 'back under its own name');
  assert.is(readFileSync(file, 'utf8'), line('a', '2026-11-21T10:00:00.000Z'));
  rmSync(paths.events);
  assert.is(await mergeEventSpool(root), 1);
  assert.equal(readdirSync(paths.eventsSpool), []);
  assert.ok(!existsSync(join(paths.eventsSpool, 'x')));
});

merge.run();
