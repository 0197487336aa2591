import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { main } from '../../../lib/cli/main.js';
import { OPERATOR_TOOLS } from '../../../lib/tools/operator.js';
import { TOOLS } from '../../../lib/tools/index.js';
import { svc } from '../../helpers/cli.js';
import { closeDaemons, startTestDaemon, writeTaskFiles } from '../../helpers/daemon.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';

const bulk = suite('cli.task bulk ids');
bulk.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

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
  assert.equal(
    [json.code, outcomes.map((o) => [o.id, o.ok, o.error?.code])],
    [
      1,
      [
        [a, false, 'invalid_transition'],
        [b, false, 'invalid_transition'],
      ],
    ],
  );
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

bulk('a promote of 300 ids through the daemon prints each id as it is done, in order, and completes', async () => {
  const root = tempRoot();
  const ids = await writeTaskFiles(root, 300);
  const daemon = await startTestDaemon(root, {
    schedule: false,
    watch: false,
    rescanIntervalMs: 600_000,
    tools: [...TOOLS, ...OPERATOR_TOOLS],
  });
  const ready = () => ids.filter((id) => daemon.index.get(id)?.status === 'ready').length;
  const writes: { text: string; readyThen: number }[] = [];
  let stderr = '';
  const code = await main(['task', 'promote', ...ids], {
    stdout: (text) => void writes.push({ text, readyThen: ready() }),
    stderr: (text) => void (stderr += text),
    env: { SVC_HOME: root },
  });
  assert.is(code, 0, stderr);
  assert.is(stderr, '', 'piped: no count on stderr');
  assert.is(writes.map((write) => write.text).join(''), ids.map((id) => `${id} backlog -> ready\n`).join(''));
  assert.ok(
    writes[0]!.readyThen < ids.length,
    `the first id is printed while others are still moving (${writes[0]!.readyThen} ready)`,
  );
  assert.ok(writes.length > 1, 'printed as it goes, not at the end');
  assert.is(ready(), ids.length);
});

bulk(
  'an interrupted bulk promote (SIGINT) finishes the calls under way, has printed each done, and lists the ids not tried',
  async () => {
    const root = tempRoot();
    const ids = await writeTaskFiles(root, 1000);
    await startTestDaemon(root, {
      schedule: false,
      watch: false,
      rescanIntervalMs: 600_000,
      tools: [...TOOLS, ...OPERATOR_TOOLS],
    });
    const bin = fileURLToPath(new URL('../../../bin/svc.js', import.meta.url));
    const child = spawn(process.execPath, [bin, 'task', 'promote', ...ids], {
      env: { ...process.env, SVC_HOME: root },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let [stdout, stderr] = ['', ''];
    child.stdout!.on('data', (chunk: Buffer) => {
      if (!stdout.includes('\n') && (stdout += chunk.toString()).includes('\n')) child.kill('SIGINT');
      else stdout += chunk.toString();
    });
    child.stderr!.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    const code = await new Promise((resolve) => child.on('close', resolve));
    assert.is(code, 130, stderr);
    const done = stdout
      .trim()
      .split('\n')
      .map((line) => line.split(' ')[0]!);
    assert.equal(done, ids.slice(0, done.length), 'printed in order');
    const rest =
      /svc: interrupted: \d+ not tried \(each one done is printed above\): (.*)\n/.exec(stderr)?.[1]?.split(' ') ?? [];
    assert.ok(rest.length > 0, stderr);
    assert.equal([...done, ...rest], ids);
    assert.match(stderr, /hint: run the command again with these ids to go on\./);
    for (const id of [done.at(-1)!, rest[0]!])
      assert.ok(existsSync(`${root}/tasks/${id === rest[0] ? 'backlog' : 'ready'}/${id}.md`), id);
  },
);

bulk('the count of a bulk command goes to stderr when it is a terminal, and not with --json', async () => {
  const root = tempRoot();
  const ids = await writeTaskFiles(root, 3);
  let stderr = '';
  const run = (...argv: string[]) =>
    main(argv, {
      stdout: () => undefined,
      stderr: (text) => void (stderr += text),
      env: { SVC_HOME: root },
      stderrTty: true,
    });
  assert.is(await run('task', 'promote', ...ids), 0);
  assert.match(stderr, /\r\x1b\[2KDone: 3 \/ 3/);
  stderr = '';
  assert.is(await run('task', 'status', ids[0]!, 'backlog'), 0);
  assert.is(await run('task', 'cancel', ...ids, '--json'), 0);
  assert.is(stderr, '');
});

bulk.run();
