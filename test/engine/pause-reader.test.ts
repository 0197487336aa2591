import { mkdirSync, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createPauseReader } from '../../lib/engine/pause-reader.js';
import { toPaths } from '../../lib/store/disk/paths.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

const NOW = new Date('2026-11-21T10:00:00.000Z');

const reader = suite('engine.createPauseReader');
reader.after.each(cleanRoots);

reader('reads the pause file when it changes; a file that does not parse keeps the pauses read before', async () => {
  const root = tempRoot();
  const paths = toPaths(root);
  const lines: string[] = [];
  const pauses = createPauseReader(paths, (line) => void lines.push(line));
  assert.is((await pauses.get()).size, 0);
  mkdirSync(paths.data, { recursive: true });
  writeFileSync(paths.agentPauses, JSON.stringify({ paused: { dev: { since: NOW.toISOString(), by: 'operator' } } }));
  assert.is(await pauses.isPaused('dev'), true);
  writeFileSync(paths.agentPauses, '{"paused": {"dev": ');
  assert.is(await pauses.isPaused('dev'), true, 'a broken edit does not release dev');
  assert.match(lines.join('\n'), /agent-pauses\.json: not JSON .*; keeping the pauses read before/);
  writeFileSync(paths.agentPauses, JSON.stringify({ paused: {} }));
  assert.is(await pauses.isPaused('dev'), false);
});

reader.run();
