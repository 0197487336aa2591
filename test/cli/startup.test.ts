import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { TOOLS } from '../../lib/tools/index.js';
import { OPERATOR_TOOLS } from '../../lib/tools/operator.js';
import { svc } from '../helpers/cli.js';
import { closeDaemons, startTestDaemon } from '../helpers/daemon.js';
import { EXTERNAL, HEAVY, runRecordingLoads, wrappedSources, type LoadedRun } from '../helpers/loaded.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

const startup = suite('cli start-up: what each command loads (built bin/svc.js)');
startup.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

/** The service's modules beyond the store: a task command without a daemon loads none of them. */
const SERVICE = [
  'dist/org/',
  'dist/tools/index.js',
  'dist/tools/dispatch.js',
  'dist/daemon/daemon.js',
  'dist/mcp/',
  'dist/engine/',
  'node_modules/polka/',
  'node_modules/@modelcontextprotocol/',
];

function assertLight(run: LoadedRun, what: string): void {
  assert.ok(run.code === 0 || run.code === 3, `${what} exited ${run.code}: ${run.stderr}`);
  for (const heavy of HEAVY)
    assert.not.ok(
      run.sources.some((source) => source.includes(heavy)),
      `${what} loaded ${heavy}`,
    );
}

startup('the bundle keeps the store, zod, YAML, locks and the service wrapped until a command imports them', () => {
  const wrapped = wrappedSources();
  assert.ok(wrapped.includes('dist/cli/task/command.js'), wrapped.slice(0, 5).join(', '));
  for (const module of [...HEAVY, ...SERVICE].filter((name) => !EXTERNAL.includes(name)))
    assert.ok(
      wrapped.some((source) => source.includes(module)),
      `${module} is wrapped in the bundle`,
    );
  for (const module of EXTERNAL)
    assert.not.ok(
      wrapped.some((source) => source.includes(module)),
      `${module} is left out of the bundle`,
    );
});

startup('with a daemon, the everyday commands load no store, zod, YAML or lock code', async () => {
  const root = tempRoot();
  const ids: string[] = [];
  for (const title of ['One', 'Two', 'Three', 'Four'])
    ids.push((await svc(root, 'task', 'create', title)).stdout.split('\n')[0]!);
  await startTestDaemon(root, { schedule: false, tools: [...TOOLS, ...OPERATOR_TOOLS] });
  const [one, two, three, four] = ids as [string, string, string, string];
  const created = await runRecordingLoads(root, ['task', 'create', 'Through', 'the', 'socket']);
  assertLight(created, 'svc task create');
  assert.match(created.stdout, /^TASK-\d{4}-\d{2}-\d{2}-005\n/);
  const runs: [string[], RegExp][] = [
    [['--version'], /^\d+\.\d+\.\d+\n$/],
    [['task', 'list'], /Through the socket/],
    [['task', 'show', one], /title: One/],
    [['task', 'promote', one], / backlog -> ready/],
    [['task', 'status', two, 'ready'], / backlog -> ready/],
    [['task', 'claim', one], /leased to operator/],
    [['task', 'close', three], / backlog -> done/],
    [['task', 'note', two, 'light'], / noted \(ready\)/],
    [['task', 'list', '--text', 'light', '--since', '1h'], /Two/],
    [['task', 'tree', one], /\(no subtasks\)/],
    [['archive', '--dry-run'], /0 would archive/],
    [['board'], /Ready \(1\)/],
    [['daemon', 'status'], /Status: running \(healthy\)/],
    [['tool', 'svc_status', `{"status":"ready"}`], /"total": 1/],
    [['task', 'promote', four, '005'], / backlog -> ready\n.+ backlog -> ready/],
    [['task', 'status', four, 'redy'], /^$/],
  ];
  for (const [argv, expected] of runs) {
    const run = await runRecordingLoads(root, argv);
    if (argv.includes('redy')) {
      assert.equal([run.code, /Did you mean "ready"/.test(run.stderr)], [2, true]);
      for (const heavy of HEAVY)
        assert.not.ok(
          run.sources.some((source) => source.includes(heavy)),
          `a refused status loaded ${heavy}`,
        );
      continue;
    }
    assertLight(run, `svc ${argv.join(' ')}`);
    assert.match(run.stdout, expected, `svc ${argv.join(' ')}`);
  }
});

startup('without a daemon, a task command loads the store and nothing else of the service', async () => {
  const root = tempRoot();
  const run = await runRecordingLoads(root, ['task', 'create', 'No daemon']);
  assert.is(run.code, 0, run.stderr);
  assert.ok(run.sources.includes('dist/store/commit/store.js'));
  for (const module of EXTERNAL)
    assert.ok(run.sources.includes(module), `svc task create required ${module}: ${run.sources.join(', ')}`);
  for (const other of SERVICE) {
    assert.not.ok(
      run.sources.some((source) => source.includes(other)),
      `svc task create loaded ${other}`,
    );
  }
  const status = await runRecordingLoads(root, ['daemon', 'status']);
  assert.is(status.code, 3, status.stderr);
  assertLight(status, 'svc daemon status');
  const version = await runRecordingLoads(root, ['--version']);
  assert.equal(
    version.sources
      .filter((source) => !source.startsWith('bin/'))
      .every((source) => /^dist\/(cli\/(main|frame\/version|output\/color)|core\/package-root)\.js$/.test(source)),
    true,
    version.sources.join(', '),
  );
});

startup.run();
