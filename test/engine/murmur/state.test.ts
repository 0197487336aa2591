import { readFileSync, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { newMurmurState, readMurmurState, writeMurmurState } from '../../../lib/engine/murmur/state.js';
import { toPaths } from '../../../lib/store/disk/paths.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';
import { NOW, state } from './murmur-fixtures.js';

const file = suite('engine.murmurState');
file.after.each(cleanRoots);

file('writes exactly the six fields and reads them back; a missing file is a fresh state', async () => {
  const paths = toPaths(tempRoot());
  assert.equal(await readMurmurState(paths, 'core', () => assert.unreachable('no warning')), newMurmurState());
  const s = state({
    lastReviewAt: NOW.toISOString(),
    completionsSinceLastReview: 2,
    currentReviewTaskId: 'T-1',
    reviewStartedAt: NOW.toISOString(),
    lastTriggeredBy: 'interval',
  });
  await writeMurmurState(paths, 'core', s);
  assert.equal(Object.keys(JSON.parse(readFileSync(paths.murmurFile('core'), 'utf8'))), [
    'lastReviewAt',
    'completionsSinceLastReview',
    'failuresSinceLastReview',
    'currentReviewTaskId',
    'reviewStartedAt',
    'lastTriggeredBy',
  ]);
  assert.equal(await readMurmurState(paths, 'core', () => undefined), s);
});

file('a field of the wrong type takes its fresh value with a warning', async () => {
  const paths = toPaths(tempRoot());
  await writeMurmurState(paths, 'core', newMurmurState());
  writeFileSync(
    paths.murmurFile('core'),
    JSON.stringify({ completionsSinceLastReview: 'many', failuresSinceLastReview: 2 }),
  );
  const warnings: string[] = [];
  assert.equal(
    await readMurmurState(paths, 'core', (line) => warnings.push(line)),
    state({ failuresSinceLastReview: 2 }),
  );
  assert.match(warnings.join('\n'), /field completionsSinceLastReview has the wrong type/);
});

file.run();
