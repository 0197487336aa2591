import { existsSync, readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { svc } from '../helpers/cli.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

const bulk = suite('cli.task bulk ids');
bulk.after.each(cleanRoots);

async function createMany(root: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push((await svc(root, 'task', 'create', `T${i}`)).stdout.split('\n')[0]!);
  return ids;
}

bulk('promote takes several ids (bare sequences, with or without a dash) and reports each', async () => {
  const root = tempRoot();
  const [a, b, c] = await createMany(root, 3);
  const out = await svc(root, 'task', 'promote', '001', '-002', c!);
  assert.is(out.code, 0, out.stderr);
  assert.is(out.stdout, `${a} backlog -> ready\n${b} backlog -> ready\n${c} backlog -> ready\n`);
});

bulk('a bulk command rerun with its --request-id replays each call instead of acting again', async () => {
  const root = tempRoot();
  const [a, b] = await createMany(root, 2);
  const first = await svc(root, 'task', 'promote', a!, b!, '--request-id', 'bulk-1');
  assert.is(first.code, 0, first.stderr);
  const again = await svc(root, 'task', 'promote', a!, b!, '--request-id', 'bulk-1');
  assert.equal([again.code, again.stdout], [0, first.stdout], again.stderr);
  const fresh = await svc(root, 'task', 'promote', a!, b!);
  assert.is(fresh.code, 1, 'without the id, the moves are tried again and refused');
});

bulk('one failure is reported, the others are done, and the exit code is 1', async () => {
  const root = tempRoot();
  const [a, b] = await createMany(root, 2);
  await svc(root, 'task', 'promote', b!);
  const out = await svc(root, 'task', 'promote', a!, b!, '999');
  assert.is(out.code, 1);
  assert.is(out.stdout, `${a} backlog -> ready\n`);
  assert.match(out.stderr, new RegExp(`svc: ${b}: ${b} is in ready, not backlog`));
  assert.match(out.stderr, /svc: 999: No task has the sequence number "999"/);
  assert.match(out.stderr, /svc: 2 of 3 failed; the others were done\./);
  const json = await svc(root, 'task', 'unblock', a!, '--json', b!);
  const outcomes = JSON.parse(json.stdout) as { id: string; ok: boolean; error?: { code: string } }[];
  assert.equal([json.code, outcomes.map((o) => [o.id, o.ok, o.error?.code])], [1, [[a, false, 'invalid_transition'], [b, false, 'invalid_transition']]]);
  const none = await svc(root, 'task', 'unblock', a!, b!);
  assert.equal([none.code, none.stdout], [1, '']);
  assert.match(none.stderr, /svc: 2 of 2 failed; none was done\.\n$/);
});

bulk('block keeps the lease rule for each id (a foreign lease refuses that one only); cancel has none', async () => {
  const root = tempRoot();
  const [free, held, other] = await createMany(root, 3);
  await svc(root, 'task', 'promote', held!);
  const claimed = await svc(root, 'task', 'claim', held!, '--agent', 'dev');
  const session = /session ([0-9a-f-]+)\)/.exec(claimed.stdout)![1]!;
  const block = await svc(root, 'task', 'block', held!, other!, '--reason', 'keys');
  assert.is(block.code, 1);
  assert.is(block.stdout, `${other} backlog -> blocked\n`);
  assert.match(block.stderr, new RegExp(`Task has active lease: ${held} is held by agent dev`));
  assert.ok(block.stderr.includes(`svc task block ${held} --reason 'keys' --session ${session}`), block.stderr);
  assert.ok(existsSync(`${root}/tasks/in-progress/${held}.md`));
  assert.match(readFileSync(`${root}/tasks/blocked/${other}.md`, 'utf8'), /blockReason: keys/);
  const cancel = await svc(root, 'task', 'cancel', free!, held!, '--reason', 'dup');
  assert.is(cancel.code, 0, cancel.stderr);
  assert.is(cancel.stdout, `${free} backlog -> cancelled\n${held} in-progress -> cancelled\n`);
  const noReason = await svc(root, 'task', 'block', free!, other!);
  assert.is(noReason.code, 1);
  assert.match(noReason.stderr, new RegExp(`Blocking ${free} ${other} needs a reason`));
  assert.match(noReason.stderr, /hint: .*--reason "/);
});

bulk('resurrect takes several ids; with one id a failure reads as before', async () => {
  const root = tempRoot();
  const [a] = await createMany(root, 1);
  const one = await svc(root, 'task', 'resurrect', a!);
  assert.is(one.code, 1);
  assert.match(one.stderr, new RegExp(`^svc: ${a} is in backlog, not deadletter`));
});

bulk.run();
