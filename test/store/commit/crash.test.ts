import { existsSync, readdirSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readEvents } from '../../../lib/store/events/log.js';
import { createStore } from '../../../lib/store/commit/store.js';
import { killWorkers, startWorker } from '../../helpers/children.js';
import { svc } from '../../helpers/cli.js';
import { checkTree } from '../../helpers/invariants.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';

const crash = suite('store.crash');
crash.after.each(async () => {
  await killWorkers();
  cleanRoots();
});

const KILLS = 20;
const TASKS = 12;

crash(`a writer SIGKILLed ${KILLS} times leaves a tree that doctor --fix restores to every invariant`, async () => {
  const root = tempRoot();
  const store = createStore({ root });
  const ids: string[] = [];
  for (let i = 0; i < TASKS; i++) ids.push((await store.create({ title: `Cycled ${i}`, createdBy: 'test' })).task.id);
  const created = new Set(ids);
  let fixes = 0;
  let duplicates = 0;
  const start = () => startWorker({ op: 'cycle', root, ids, count: 2000, createEvery: 40, gated: true });
  let next = start();
  for (let round = 0; round < KILLS; round++) {
    const worker = next;
    await worker.waitFor(/^start$/);
    worker.go();
    await pause(200 + Math.floor(Math.random() * 600));
    await worker.kill();
    next = start(); // boots while this round is checked; it writes nothing until `go()`
    assert.is(
      worker.child.signalCode,
      'SIGKILL',
      `round ${round}: the worker ended by itself: ${worker.stderr().slice(-1000)}`,
    );
    for (const line of worker.lines) if (line.startsWith('created ')) created.add(line.slice('created '.length));
    const doctor = await svc(root, 'doctor', '--fix');
    assert.is(doctor.code, 0, `round ${round}: doctor --fix failed:\n${doctor.stdout}${doctor.stderr}`);
    if (/^fixed: /m.test(doctor.stdout)) fixes++;
    duplicates += doctor.stdout.split('\n').filter((line) => line.startsWith('fixed: duplicate ')).length;
    const { violations, where } = await checkTree(root, created);
    assert.equal(violations, [], `round ${round}`);
    for (const id of where.keys()) created.add(id); // a create killed before it reported its id: it must stay too
    assert.is((await svc(root, 'doctor')).stdout.trim(), 'ok: no problems');
  }
  const conflicts = existsSync(store.paths.conflicts) ? readdirSync(store.paths.conflicts) : [];
  assert.is(conflicts.length, duplicates, 'every losing copy is kept in data/conflicts/');
  const moves = await readEvents(root, { type: 'task.transitioned' });
  assert.ok(moves.length > KILLS, `the workers made ${moves.length} transitions`);
  assert.ok(
    moves.every((event) => event.actor === 'cycler'),
    'no heal was needed: a crash never leaves a frontmatter behind its directory',
  );
  process.stdout.write(
    `  (${KILLS} kills, ${moves.length} transitions, ${created.size} tasks, doctor fixed something after ${fixes} kills, ${duplicates} duplicates)\n`,
  );
});

/** Lets the worker run for a while before it is killed (a bounded wait is the point here). */
function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

crash.run();
