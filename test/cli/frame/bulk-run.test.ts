import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BATCH_SIZE, LARGE_RUN } from '../../../lib/cli/frame/bulk-run.js';
import { main } from '../../../lib/cli/main.js';
import { OPERATOR_TOOLS } from '../../../lib/tools/operator.js';
import { TOOLS } from '../../../lib/tools/index.js';
import { toPaths } from '../../../lib/store/disk/paths.js';
import { closeDaemons, startTestDaemon, writeTaskFiles } from '../../helpers/daemon.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';

const bulk = suite('cli.bulk-run batches');
bulk.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

/** `svc <argv>` in this process: its exit code, stdout and stderr. */
async function run(root: string, ...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let [stdout, stderr] = ['', ''];
  const code = await main(argv, {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    env: { SVC_HOME: root },
  });
  return { code, stdout, stderr };
}

/** A root of `count` backlog tasks, the third of them already ready; its ids. */
async function prepare(count: number): Promise<{ root: string; ids: string[] }> {
  const root = tempRoot();
  const ids = await writeTaskFiles(root, count, (i) => (i === 3 ? 'ready' : 'backlog'));
  return { root, ids };
}

const daemonOptions = {
  schedule: false,
  watch: false,
  rescanIntervalMs: 600_000,
  tools: [...TOOLS, ...OPERATOR_TOOLS],
};

/** The batches the daemon of `root` answered (its log, read once it has stopped). */
function batchesLogged(root: string): { tool: string; calls: number; failed: number }[] {
  const log = readFileSync(join(toPaths(root).logs, 'daemon.log'), 'utf8');
  return [...log.matchAll(/ info tool\.batch (\{.*\})\n/g)].map((match) => JSON.parse(match[1]!));
}

bulk(
  'a bulk promote through the daemon sends its ids in batches and reports a mix of good and bad ids as it does without a daemon',
  async () => {
    const count = BATCH_SIZE * 2 + 10;
    const apart = await prepare(count);
    const alone = await run(apart.root, 'task', 'promote', ...apart.ids, '999');
    const { root, ids } = await prepare(count);
    const daemon = await startTestDaemon(root, daemonOptions);
    const through = await run(root, 'task', 'promote', ...ids, '999');
    await daemon.close();
    assert.equal(through, alone, 'the same exit code, stdout and stderr');
    assert.is(through.code, 1);
    assert.match(through.stderr, new RegExp(`svc: ${ids[2]}: ${ids[2]} is in ready, not backlog`));
    assert.match(through.stderr, /svc: 999: No task has the sequence number "999"/);
    assert.match(through.stderr, new RegExp(`svc: 2 of ${count + 1} failed; the others were done\\.`));
    assert.is(through.stdout.split('\n').length - 1, count - 1);
    const batches = batchesLogged(root)
      .map(({ tool, calls, failed }) => `${tool} ${calls} ${failed}`)
      .sort();
    assert.equal(
      batches,
      [
        `operator_task_promote 11 1`,
        `operator_task_promote ${BATCH_SIZE} 0`,
        `operator_task_promote ${BATCH_SIZE} 1`,
      ].sort(),
      'one request per batch, each failure in its own',
    );
  },
);

bulk(`a run of ${LARGE_RUN} ids or more goes 100 ids to a request`, async () => {
  const { root, ids } = await prepare(LARGE_RUN);
  const daemon = await startTestDaemon(root, daemonOptions);
  const through = await run(root, 'task', 'promote', ...ids);
  await daemon.close();
  assert.is(through.code, 1, 'the one ready already is refused');
  assert.is(through.stdout.split('\n').length - 1, LARGE_RUN - 1);
  assert.equal(
    batchesLogged(root).map(({ calls }) => calls),
    Array.from({ length: LARGE_RUN / 100 }, () => 100),
  );
});

bulk('a bulk promote through the daemon rerun with its --request-id replays each id of each batch', async () => {
  const { root, ids } = await prepare(BATCH_SIZE + 5);
  const daemon = await startTestDaemon(root, daemonOptions);
  const first = await run(root, 'task', 'promote', ...ids, '--request-id', 'bulk-batch');
  const again = await run(root, 'task', 'promote', ...ids, '--request-id', 'bulk-batch');
  assert.equal(
    [again.code, again.stdout, again.stderr],
    [first.code, first.stdout, first.stderr],
    'the first answers, the refusal of the ready one included',
  );
  const apart = await run(root, 'task', 'promote', ids[0]!, ids[1]!, '--request-id', 'bulk-batch-2');
  assert.is(apart.code, 1, 'under another id the moves are tried again and refused');
  await daemon.close();
  assert.is(batchesLogged(root).length, 5);
});

bulk('an invalid --request-id fails each id as it does without a daemon, and nothing is moved', async () => {
  const apart = await prepare(3);
  const alone = await run(apart.root, 'task', 'promote', ...apart.ids, '--request-id', 'not an id');
  const { root, ids } = await prepare(3);
  await startTestDaemon(root, daemonOptions);
  const through = await run(root, 'task', 'promote', ...ids, '--request-id', 'not an id');
  assert.equal(through, alone);
  assert.equal([through.code, through.stdout], [1, '']);
  assert.match(through.stderr, /svc: TASK-2026-01-01-001: Invalid request id "not an id\.1"/);
  assert.match(through.stderr, /svc: TASK-2026-01-01-002: Invalid request id "not an id\.2"/);
});

bulk('a daemon that does not know batches (404 on POST /v1/tool/batch) gets one call per id', async () => {
  const { root, ids } = await prepare(BATCH_SIZE + 20);
  const seen: string[] = [];
  // An older daemon: no batch route; each call answered as a move.
  const older = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => void (body += chunk.toString()));
    req.on('end', () => {
      seen.push(`${req.method} ${req.url}`);
      const known = req.url === '/v1/tool/invoke';
      const taskId = known ? (JSON.parse(body) as { params: { taskId: string } }).params.taskId : '';
      res.writeHead(known ? 200 : 404, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(
          known
            ? { ok: true, result: { taskId, from: 'backlog', to: 'ready', transitioned: true } }
            : { ok: false, error: { code: 'not_found', message: `No route ${req.method} ${req.url}.` } },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => older.listen(toPaths(root).socket, resolve));
  try {
    const out = await run(root, 'task', 'promote', ...ids);
    assert.equal([out.code, out.stdout, out.stderr], [0, ids.map((id) => `${id} backlog -> ready\n`).join(''), '']);
  } finally {
    await new Promise((resolve) => older.close(resolve));
  }
  const batches = seen.filter((line) => line === 'POST /v1/tool/batch').length;
  assert.ok(batches >= 1 && batches <= 2, `asked for batches ${batches} times, then no more`);
  assert.is(seen.filter((line) => line === 'POST /v1/tool/invoke').length, ids.length);
});

bulk.run();
