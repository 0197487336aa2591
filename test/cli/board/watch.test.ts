import { spawn, type ChildProcess } from 'node:child_process';
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { TOOLS } from '../../../lib/tools/index.js';
import { OPERATOR_TOOLS } from '../../../lib/tools/operator.js';
import { SVC_BIN } from '../../helpers/agents.js';
import { svc } from '../../helpers/cli.js';
import { closeDaemons, startTestDaemon } from '../../helpers/daemon.js';
import { cleanRoots, tempRoot, within } from '../../helpers/root.js';

const COLOUR = /\u001b\[[0-9;]*m/;
const HOME = '\u001b[H';

/** A running `svc board --watch`: its output so far, and how to stop it. */
interface Watcher {
  child: ChildProcess;
  output(): string;
  /** Stops it (SIGINT, or Ctrl-C typed on its terminal) and resolves with its exit code. */
  stop(): Promise<number | null>;
}

const watchers: Watcher[] = [];

/** Starts the built `svc board --watch` with stdout on a pipe, or on a pseudo-terminal (`script`). */
function startWatch(
  root: string,
  options: { pty?: boolean; env?: Record<string, string>; args?: string[] } = {},
): Watcher {
  const argv = [SVC_BIN, 'board', '--watch', ...(options.args ?? [])];
  const env = { ...process.env, SVC_HOME: root, TERM: 'xterm-256color', COLUMNS: '100', ...options.env };
  const child = options.pty
    ? // `exec`: the command is the terminal's only process, whatever shell `script` runs it with (dash,
      // the usual /bin/sh when SHELL is unset, would otherwise stay between and die of the Ctrl-C itself).
      spawn('script', ['-qec', `exec ${[process.execPath, ...argv].map((arg) => `'${arg}'`).join(' ')}`, '/dev/null'], {
        env,
        stdio: ['pipe', 'pipe', 'pipe'],
      })
    : spawn(process.execPath, argv, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => void (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => void (out += chunk.toString()));
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  const watcher: Watcher = {
    child,
    output: () => out,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        if (options.pty) child.stdin!.write('\u0003');
        else child.kill('SIGINT');
      }
      return closed;
    },
  };
  watchers.push(watcher);
  return watcher;
}

const count = (text: string, part: string) => text.split(part).length - 1;

const watch = suite('cli.board --watch');
watch.after.each(async () => {
  for (const watcher of watchers.splice(0)) await watcher.stop();
  await closeDaemons();
  cleanRoots();
});

watch('without a daemon: reads the files again and prints a new frame when a task moves; Ctrl-C exits 0', async () => {
  const root = tempRoot();
  const id = (await svc(root, 'task', 'create', 'Move me')).stdout.split('\n')[0]!;
  const watcher = startWatch(root);
  await within(15_000, () => watcher.output().includes('Backlog (1)'), 'the first frame');
  assert.match(watcher.output(), /from the files, read every 1 s \(no daemon\)/);
  await svc(root, 'task', 'promote', id);
  await within(15_000, () => watcher.output().includes('Ready (1)'), 'a frame after the move');
  assert.is(count(watcher.output(), 'svc board --watch,'), 2, 'one frame per change, none while nothing moves');
  assert.not.match(watcher.output(), /\u001b/);
  assert.is(await watcher.stop(), 0);
});

watch('with a daemon: redraws from its index when a task moves, also when a file is moved by hand', async () => {
  const root = tempRoot();
  const id = (await svc(root, 'task', 'create', 'Move me')).stdout.split('\n')[0]!;
  const daemon = await startTestDaemon(root, { schedule: false, tools: [...TOOLS, ...OPERATOR_TOOLS] });
  await daemon.index.watching;
  const watcher = startWatch(root);
  await within(15_000, () => watcher.output().includes('Backlog (1)'), 'the first frame');
  assert.match(watcher.output(), /from the daemon's index, redrawn as tasks move/);
  await svc(root, 'task', 'promote', id);
  await within(15_000, () => watcher.output().includes('Ready (1)'), 'a frame after the promote');
  renameSync(join(root, 'tasks', 'ready', `${id}.md`), join(root, 'tasks', 'backlog', `${id}.md`));
  await within(15_000, () => count(watcher.output(), 'Backlog (1)') === 2, 'a frame after the hand move');
  assert.is(await watcher.stop(), 0);
});

watch('piped into a reader that goes (| head -3): exits 0 at once, without waiting for a task change', async () => {
  const root = tempRoot();
  await svc(root, 'task', 'create', 'Nothing moves');
  await startTestDaemon(root, { schedule: false, tools: [...TOOLS, ...OPERATOR_TOOLS] });
  const started = performance.now();
  // `head` exits after the first lines; the board then waits on the daemon's change feed (20 s a
  // long-poll) and prints nothing more, since nothing moves: only the reader's going can end it
  const pipeline = spawn('sh', ['-c', `'${process.execPath}' '${SVC_BIN}' board --watch | head -3`], {
    env: { ...process.env, SVC_HOME: root },
    stdio: ['ignore', 'pipe', 'ignore'],
    detached: true,
  });
  let out = '';
  pipeline.stdout.on('data', (chunk: Buffer) => void (out += chunk.toString()));
  // a board that never notices is killed with its pipeline (its own process group), and fails below
  const bound = setTimeout(() => process.kill(-pipeline.pid!, 'SIGKILL'), 30_000);
  const code = await new Promise<number | null>((resolve) => pipeline.on('close', resolve));
  clearTimeout(bound);
  const seconds = (performance.now() - started) / 1000;
  console.log(`  svc board --watch | head -3 ended after ${seconds.toFixed(1)} s`);
  assert.is(code, 0);
  assert.match(out, /^svc board --watch, .*\n\nBacklog \(1\)/);
  assert.ok(seconds < 15, `ended in ${seconds.toFixed(1)} s, not after a long-poll of 20 s or more`);
});

watch('on a terminal: redraws in place, in colour; NO_COLOR keeps the redraw and drops the colour', async () => {
  const root = tempRoot();
  const id = (await svc(root, 'task', 'create', 'Move me', '--priority', 'high')).stdout.split('\n')[0]!;
  const coloured = startWatch(root, { pty: true });
  await within(15_000, () => coloured.output().includes('Backlog (1)'), 'the first frame');
  await svc(root, 'task', 'promote', id);
  await within(15_000, () => coloured.output().includes('Ready (1)'), 'the redraw');
  const screen = coloured.output();
  assert.ok(count(screen, HOME) >= 2, 'each frame starts at the top left');
  assert.match(screen, COLOUR);
  assert.is(await coloured.stop(), 0);
  const plain = startWatch(root, { pty: true, env: { NO_COLOR: '1' } });
  await within(15_000, () => plain.output().includes('Ready (1)'), 'the first frame without colour');
  assert.ok(plain.output().includes(HOME));
  assert.not.match(plain.output(), COLOUR);
  assert.is(await plain.stop(), 0);
});

watch('with --json: one JSON object a line per change', async () => {
  const root = tempRoot();
  const id = (await svc(root, 'task', 'create', 'Move me')).stdout.split('\n')[0]!;
  const watcher = startWatch(root, { args: ['--json'] });
  await within(15_000, () => watcher.output().split('\n').length > 1, 'the first line');
  await svc(root, 'task', 'promote', id);
  await within(15_000, () => watcher.output().split('\n').length > 2, 'the second line');
  const [first, second] = watcher
    .output()
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { columns: { title: string; count: number }[] });
  assert.equal([first!.columns[0]!.count, second!.columns[1]!.count], [1, 1]);
  assert.is(await watcher.stop(), 0);
});

watch.run();
