import { readFileSync, statSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { closeDaemons, runSvc } from '../helpers/daemon.js';
import { cleanRoots, within } from '../helpers/root.js';
import { doneOf, start } from './run-logs-setup.js';

// The log of each run of a local agent (docs/approvals-and-logs.md), through a real daemon and the real command line.
// --follow: run-logs-follow.test.ts.
const logs = suite('e2e.run logs');
logs.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

logs(
  "an agent's stdout and stderr go to its run log under a header; svc task logs prints it by sequence id and svc task show names it",
  async () => {
    const { root, env, id } = await start(
      `console.log('to stdout \\u001b[2J'); console.error('to stderr'); complete();`,
    );
    assert.is((await runSvc(env, 'task', 'promote', id)).code, 0);
    await doneOf(root, id);
    const shown = await within(
      15_000,
      async () => {
        const out = (await runSvc(env, 'task', 'logs', `-${id.slice(-3)}`)).stdout;
        return /svc run ended: exit code 0/.test(out) ? out : null;
      },
      'the end line',
    );
    const lines = shown.trimEnd().split('\n');
    assert.match(
      lines[0]!,
      new RegExp(`^=== svc run: task ${id}, agent dev, session (\\S+), started \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z ===$`),
    );
    assert.ok(lines.includes('to stdout \\x1b[2J'), 'stdout, its control characters escaped');
    assert.ok(lines.includes('to stderr'), 'stderr');
    assert.match(lines.at(-1)!, /^=== svc run ended: exit code 0 at \S+ ===$/);
    const file = JSON.parse((await runSvc(env, 'task', 'logs', id, '--json')).stdout) as {
      path: string;
      session: string;
      kind: string;
      name: string;
      n: number;
    }[];
    assert.equal(
      file.map((f) => [f.n, f.kind, f.name]),
      [[1, 'agent', 'dev']],
    );
    assert.ok(file[0]!.path.startsWith(`${root}/data/logs/runs/${id}/${file[0]!.session}-1.log`));
    const show = await runSvc(env, 'task', 'show', id);
    assert.match(show.stdout, new RegExp(`^last run log: ${file[0]!.path} \\(svc task logs ${id}\\)$`, 'm'));
    assert.is(
      (JSON.parse((await runSvc(env, 'task', 'show', id, '--json')).stdout) as { lastRunLog: string }).lastRunLog,
      file[0]!.path,
    );
    assert.match(
      readFileSync(`${root}/data/logs/agents.log`, 'utf8'),
      new RegExp(`${id} dev session \\S+: ended \\(exit code 0\\)`),
    );
  },
);

logs('--run n prints the n-th run; a run past the last is a clear error', async () => {
  const { root, env, id } = await start(`console.log('attempt ' + run); if (run === 1) process.exit(1); complete();`);
  assert.is((await runSvc(env, 'task', 'promote', id)).code, 0);
  await doneOf(root, id);
  await within(
    15_000,
    async () =>
      (JSON.parse((await runSvc(env, 'task', 'logs', id, '--json')).stdout) as { ended: string | null }[]).filter(
        (r) => r.ended,
      ).length === 2,
    'two ended runs',
  );
  const one = await runSvc(env, 'task', 'logs', id, '--run', '1');
  assert.match(one.stdout, /^attempt 1$/m);
  assert.match(one.stdout, /svc run ended: exit code 1/);
  assert.not.match(one.stdout, /attempt 2/);
  const two = await runSvc(env, 'task', 'logs', id, '--run', '2');
  assert.match(two.stdout, /^attempt 2$/m);
  assert.not.match(two.stdout, /attempt 1/);
  const three = await runSvc(env, 'task', 'logs', id, '--run', '3');
  assert.is(three.code, 1);
  assert.match(three.stderr, new RegExp(`${id} has 2 run logs; there is no run 3`));
  const zero = await runSvc(env, 'task', 'logs', id, '--run', '0');
  assert.is(zero.code, 2);
});

logs(
  'the cap keeps the tail: header, a note that earlier output was dropped, the last lines and the end line',
  async () => {
    const cap = 4096;
    const { root, env, id } = await start(
      `for (let i = 1; i <= 5000; i++) console.log('line ' + i + ' of the output'); console.log('LAST LINE'); complete();`,
      { runLogMaxBytes: cap },
    );
    assert.is((await runSvc(env, 'task', 'promote', id)).code, 0);
    await doneOf(root, id);
    const [entry] = await within(
      15_000,
      async () => {
        const rows = JSON.parse((await runSvc(env, 'task', 'logs', id, '--json')).stdout) as {
          path: string;
          ended: string | null;
          text: string;
        }[];
        return rows[0]?.ended ? rows : null;
      },
      'the ended run',
    );
    assert.ok(statSync(entry!.path).size <= cap, `${statSync(entry!.path).size} bytes`);
    const lines = entry!.text.trimEnd().split('\n');
    assert.match(lines[0]!, new RegExp(`^=== svc run: task ${id}, agent dev, `));
    assert.match(lines[1]!, /earlier output dropped to keep this log within 4096 bytes/);
    assert.ok(lines.includes('line 5000 of the output') && lines.includes('LAST LINE'));
    assert.not.ok(lines.includes('line 1 of the output'));
    assert.match(lines.at(-1)!, /svc run ended: exit code 0/);
  },
);

logs.run();
