import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { main } from '../../../lib/cli/main.js';
import { suggest } from '../../../lib/core/suggest.js';
import { renderTask } from '../../../lib/store/disk/task-file.js';
import { SVC_BIN } from '../../helpers/agents.js';
import { svc } from '../../helpers/cli.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';

const ESC = '\u001b[';

/** Runs `svc` in-process as if on a terminal of `columns` columns, with colour on or off. */
async function onTerminal(root: string, options: { color: boolean; columns?: number }, ...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    env: { SVC_HOME: root },
    color: options.color,
    ...(options.columns ? { columns: options.columns } : {}),
  });
  return { code, stdout, stderr };
}

/** Runs the built CLI on a pseudo-terminal (`script`), with `env` added. */
function onPty(root: string, env: Record<string, string>, ...argv: string[]): string {
  const command = [process.execPath, SVC_BIN, ...argv].map((arg) => `'${arg}'`).join(' ');
  const out = spawnSync('script', ['-qec', command, '/dev/null'], {
    env: { ...process.env, SVC_HOME: root, TERM: 'xterm-256color', ...env },
    encoding: 'utf8',
  });
  assert.is(out.status, 0, out.stderr);
  return out.stdout;
}

function visible(text: string): string {
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}

/** A task file written by hand, for dates the clock of the test does not give. */
function writeTask(root: string, id: string, status: string, title: string): void {
  const stamp = '2026-11-21T10:00:00.000Z';
  const task = {
    schemaVersion: 1 as const,
    id,
    project: 'default',
    title,
    status: status as 'ready',
    priority: 'normal' as const,
    routing: {},
    createdAt: stamp,
    updatedAt: stamp,
    lastTransitionAt: stamp,
    createdBy: 'test',
    dependsOn: [],
    metadata: {},
  };
  writeFileSync(join(root, 'tasks', status, `${id}.md`), renderTask(task, ''));
}

async function sixColumns(root: string): Promise<string[]> {
  const ids: string[] = [];
  for (const title of [
    'Write the release notes for the spring version',
    'Fix the flaky login test on slow machines',
    'Block me',
    'Claim me',
    'Close me',
  ]) {
    ids.push(
      (
        await svc(root, 'task', 'create', title, '--priority', 'high', '--agent', 'developer-with-a-long-name')
      ).stdout.split('\n')[0]!,
    );
  }
  ids.push(`${ids[0]!.slice(0, -3)}099`);
  writeTask(root, ids[5]!, 'deadletter', 'Failed three times');
  await svc(root, 'task', 'block', ids[2]!, '--reason', 'keys');
  await svc(root, 'task', 'promote', ids[3]!);
  await svc(root, 'task', 'claim', ids[3]!);
  await svc(root, 'task', 'close', ids[4]!);
  return ids;
}

const colour = suite('cli.output colour');
colour.after.each(cleanRoots);

colour('no escape codes when the output is not a terminal (in-process and piped)', async () => {
  const root = tempRoot();
  await sixColumns(root);
  for (const argv of [['task', 'list'], ['board'], ['task', 'show', '001']]) {
    const out = await svc(root, ...argv);
    assert.is(out.code, 0, out.stderr);
    assert.not.ok(out.stdout.includes(ESC), argv.join(' '));
  }
  const piped = spawnSync(process.execPath, [SVC_BIN, 'board'], {
    env: { ...process.env, SVC_HOME: root, FORCE_COLOR: '' },
    encoding: 'utf8',
  });
  assert.is(piped.status, 0, piped.stderr);
  assert.not.ok(piped.stdout.includes(ESC));
});

colour('statuses and priorities are coloured on a terminal', async () => {
  const root = tempRoot();
  await sixColumns(root);
  const list = await onTerminal(root, { color: true }, 'task', 'list');
  assert.ok(list.stdout.includes(`${ESC}33mhigh`), list.stdout);
  assert.ok(list.stdout.includes(`${ESC}31mdeadletter`));
  const board = await onTerminal(root, { color: true }, 'board');
  assert.ok(board.stdout.includes(ESC));
  assert.is(visible(board.stdout), (await svc(root, 'board')).stdout);
});

colour('through a pseudo-terminal: colour, and none when NO_COLOR is set', async () => {
  const root = tempRoot();
  await sixColumns(root);
  assert.ok(onPty(root, {}, 'task', 'list').includes(ESC));
  assert.ok(onPty(root, {}, 'board').includes(ESC));
  assert.not.ok(onPty(root, { NO_COLOR: '1' }, 'task', 'list').includes(ESC));
  assert.not.ok(onPty(root, { NO_COLOR: '1' }, 'board').includes(ESC));
});

const width = suite('cli.output board width');
width.after.each(cleanRoots);

width('at 80 columns every line fits and every id shows whole (-007 when all share a date)', async () => {
  const root = tempRoot();
  const ids = await sixColumns(root);
  const out = await onTerminal(root, { color: true, columns: 80 }, 'board');
  const lines = visible(out.stdout).split('\n');
  for (const line of lines) assert.ok(line.length <= 80, `${line.length} columns: ${line}`);
  for (const id of ids)
    assert.ok(
      lines.some((line) => line.includes(`-${id.slice(-3)}`)),
      `${id} shows whole`,
    );
  assert.match(out.stdout, /Blocked \(1\)/);
  assert.match(out.stdout, /Deadletter \(1\)/);
  assert.match(visible(out.stdout), new RegExp(`-001 is ${ids[0]}`));
  const wide = await onTerminal(root, { color: false, columns: 200 }, 'board');
  assert.match(wide.stdout.split('\n')[0]!, /Backlog.*Ready.*In-Progress.*Done.*Blocked.*Deadletter/);
});

width('tasks of several dates keep their dates; COLUMNS sets the width when piped', async () => {
  const root = tempRoot();
  await svc(root, 'task', 'create', 'Today');
  writeTask(root, 'TASK-2026-11-21-001', 'ready', 'Two days ago, with a title too long for a narrow column');
  const out = await onTerminal(root, { color: false, columns: 80 }, 'board');
  for (const line of out.stdout.split('\n')) assert.ok(line.length <= 80, line);
  assert.ok(out.stdout.includes('2026-11-21-001'));
  const piped = spawnSync(process.execPath, [SVC_BIN, 'board'], {
    env: { ...process.env, SVC_HOME: root, COLUMNS: '60' },
    encoding: 'utf8',
  });
  for (const line of piped.stdout.split('\n')) assert.ok(line.length <= 60, line);
  assert.ok(piped.stdout.includes('2026-11-21-001'));
});

const help = suite('cli.output help and did you mean');
help.after.each(cleanRoots);

help("each subcommand's --help says what it does and lists the values it accepts", async () => {
  const root = tempRoot();
  const status = await svc(root, 'task', 'status', '--help');
  assert.is(status.code, 0);
  assert.match(status.stdout, /Move a task to a status/);
  assert.match(status.stdout, /backlog, ready, in-progress, blocked, done, deadletter, cancelled/);
  assert.match((await svc(root, 'task', 'create', '--help')).stdout, /low, normal, high, critical/);
  assert.match((await svc(root, 'task', 'list', '--help')).stdout, /--status takes one of: backlog/);
  assert.match((await svc(root, 'tool', '--help')).stdout, /svc_dispatch, svc_task_complete, .*svc_status/);
  assert.match((await svc(root, 'board', '--help')).stdout, /NO_COLOR/);
  const group = await svc(root, 'task', '--help');
  assert.match(group.stdout, /claim <id> +Take a ready task in progress/);
  const top = await svc(root, '--help');
  assert.match(top.stdout, /task \.\.\. +Create, list, show and move tasks/);
});

help('a mistyped command, subcommand, status, priority or tool gets a "did you mean"', async () => {
  const root = tempRoot();
  const command = await svc(root, 'tsak', 'list');
  assert.equal([command.code, /Did you mean `svc task`\?/.test(command.stderr)], [2, true]);
  const sub = await svc(root, 'task', 'lsit');
  assert.equal([sub.code, /Did you mean `svc task list`\?/.test(sub.stderr)], [2, true]);
  const id = (await svc(root, 'task', 'create', 'x')).stdout.split('\n')[0]!;
  const status = await svc(root, 'task', 'status', id, 'redy');
  assert.equal([status.code, /Unknown status "redy"\. Did you mean "ready"\?/.test(status.stderr)], [2, true]);
  assert.match((await svc(root, 'task', 'create', 'y', '--priority', 'hihg')).stderr, /Did you mean "high"\?/);
  const tool = await svc(root, 'tool', 'svc_stauts');
  assert.equal([tool.code, /Unknown tool "svc_stauts"\. Did you mean "svc_status"\?/.test(tool.stderr)], [1, true]);
  assert.not.match((await svc(root, 'frobnicate')).stderr, /Did you mean/);
});

help('suggest picks the closest name within one edit per three letters, or a unique prefix', () => {
  assert.is(suggest('redy', ['backlog', 'ready', 'done']), 'ready');
  assert.is(suggest('in-porgress', ['ready', 'in-progress']), 'in-progress');
  assert.is(suggest('dead', ['deadletter', 'done']), 'deadletter');
  assert.is(suggest('zzz', ['ready', 'done']), undefined);
  assert.is(suggest('', ['ready']), undefined);
});

width(
  'a long agent id is cut with an ellipsis in the AGENT column, so the rows keep their width; --json has it whole',
  async () => {
    const root = tempRoot();
    const long = `agent-${'x'.repeat(5000)}`;
    assert.is((await svc(root, 'task', 'create', 'Routed far', '--agent', long)).code, 0);
    assert.is((await svc(root, 'task', 'create', 'Routed near', '--agent', 'dev')).code, 0);
    const out = await svc(root, 'task', 'list');
    const lines = out.stdout.trimEnd().split('\n');
    assert.ok(
      lines.every((line) => line.length < 120),
      lines.map((line) => line.length).join(', '),
    );
    assert.match(lines[1]!, new RegExp(`  agent-x{17}…  Routed far$`));
    assert.match(lines[2]!, /  dev {21}  Routed near$/);
    const json = JSON.parse((await svc(root, 'task', 'list', '--json')).stdout) as { agent: string }[];
    assert.is(json[0]!.agent, long);
  },
);

colour.run();
width.run();
help.run();
