import { readdirSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { STATUSES } from '../../../lib/core/status.js';
import { readEvents } from '../../../lib/store/events/log.js';
import { createStore } from '../../../lib/store/commit/store.js';
import { killWorkers, runWorker } from '../../helpers/children.js';
import { checkTree } from '../../helpers/invariants.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';

const race = suite('store.concurrency');
race.after.each(async () => {
  await killWorkers();
  cleanRoots();
});

const PROCESSES = 4;

race('4 processes creating 500 tasks each at once get 2,000 distinct ids, every file whole', async () => {
  const root = tempRoot();
  await createStore({ root }).init();
  const outputs = await Promise.all(
    Array.from({ length: PROCESSES }, () => runWorker({ op: 'create', root, count: 500 })),
  );
  const reported = outputs.flatMap((lines) =>
    lines.filter((line) => line.startsWith('created ')).map((line) => line.slice(8)),
  );
  assert.is(reported.length, 2000);
  assert.is(new Set(reported).size, 2000, 'no id was handed out twice');
  const files = STATUSES.flatMap((status) =>
    readdirSync(`${root}/tasks/${status}`).filter((name) => name !== '.gitkeep'),
  );
  assert.is(files.length, 2000, 'one file per id, no temporaries left');
  const { violations, where } = await checkTree(root, reported);
  assert.equal(violations, []);
  assert.is(where.size, 2000);
  const { tasks, invalid } = await createStore({ root }).list();
  assert.is(tasks.length, 2000);
  assert.equal(invalid, []);
  const created = await readEvents(root, { type: 'task.created' });
  assert.is(created.length, 2000, 'one task.created per task');
});

race('4 processes claiming the same 200 tasks: exactly one winner per task, one transition event each', async () => {
  const root = tempRoot();
  const store = createStore({ root });
  const ids: string[] = [];
  for (let i = 0; i < 200; i++)
    ids.push((await store.create({ title: `Contested ${i}`, createdBy: 'test', status: 'ready' })).task.id);
  const agents = Array.from({ length: PROCESSES }, (_, i) => `agent-${i}`);
  const outputs = await Promise.all(agents.map((agent) => runWorker({ op: 'claim', root, ids, agent })));
  const results = outputs.map(
    (lines) =>
      JSON.parse(lines.find((line) => line.startsWith('result '))!.slice(7)) as {
        won: string[];
        lost: Record<string, number>;
      },
  );
  const winners = new Map<string, string>();
  results.forEach(({ won }, i) =>
    won.forEach((id) => {
      assert.not.ok(winners.has(id), `${id} was won by ${winners.get(id)} and ${agents[i]}`);
      winners.set(id, agents[i]!);
    }),
  );
  assert.is(winners.size, 200, 'every task has a winner');
  for (const { won, lost } of results) {
    assert.ok(
      Object.keys(lost).every((code) => code === 'invalid_transition' || code === 'locked'),
      `losers got ${JSON.stringify(lost)}`,
    );
    assert.is(won.length + Object.values(lost).reduce((a, b) => a + b, 0), 200);
  }
  const { violations, where } = await checkTree(root, ids);
  assert.equal(violations, []);
  for (const id of ids) assert.equal(where.get(id), ['in-progress']);
  const moves = await readEvents(root, { type: 'task.transitioned' });
  assert.is(moves.length, 200, 'one task.transitioned per task');
  for (const event of moves)
    assert.is(event.actor, winners.get(event.taskId!), `${event.taskId} was moved by its winner`);
  for (const id of ids.slice(0, 20)) assert.is((await store.get(id)).task.lease?.agent, winners.get(id));
});

race.run();
