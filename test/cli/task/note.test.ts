import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readEvents } from '../../../lib/store/events/log.js';
import { TOOLS } from '../../../lib/tools/index.js';
import { OPERATOR_TOOLS } from '../../../lib/tools/operator.js';
import { SVC_BIN } from '../../helpers/agents.js';
import { svc } from '../../helpers/cli.js';
import { closeDaemons, startTestDaemon } from '../../helpers/daemon.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';

const note = suite('cli.task note');
note.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

const firstLine = (text: string) => text.split('\n')[0]!;

note('appends a timestamped entry under ## Notes, by a bare sequence id, and never replaces the body', async () => {
  const root = tempRoot();
  const id = firstLine((await svc(root, 'task', 'create', 'Noted', '--body', 'The brief.')).stdout);
  const first = await svc(root, 'task', 'note', '001', 'asked', 'for', 'keys');
  assert.is(first.stdout, `${id} noted (backlog)\n`, first.stderr);
  const json = await svc(root, 'task', 'note', '-001', 'got them', '--agent', 'dev', '--json');
  const result = JSON.parse(json.stdout) as { taskId: string; status: string; note: string };
  assert.equal([result.taskId, result.status], [id, 'backlog']);
  assert.match(result.note, /^- \d{4}-\d{2}-\d{2}T\d{2}:\d{2}Z dev: got them$/);
  const text = readFileSync(`${root}/tasks/backlog/${id}.md`, 'utf8');
  assert.match(
    text,
    /\nThe brief\.\n\n## Notes\n\n- \d{4}-\d{2}-\d{2}T\d{2}:\d{2}Z operator: asked for keys\n- \S+ dev: got them\n$/,
  );
  const events = (await readEvents(root)).filter((e) => e.type === 'task.updated');
  assert.equal(
    events.map((e) => [e.actor, e.payload.note]),
    [
      ['operator', 'asked for keys'],
      ['dev', 'got them'],
    ],
  );
});

note('a stale session is refused and nothing changes; an operator notes on a task an agent holds', async () => {
  const root = tempRoot();
  const id = firstLine((await svc(root, 'task', 'create', 'Held')).stdout);
  await svc(root, 'task', 'promote', id);
  const claimed = await svc(root, 'task', 'claim', id, '--agent', 'dev');
  const session = /session ([0-9a-f-]+)\)/.exec(claimed.stdout)![1]!;
  const stale = await svc(root, 'task', 'note', id, 'late', '--session', 'gone-session');
  assert.is(stale.code, 1);
  assert.match(stale.stderr, /Session gone-session no longer holds/);
  assert.is((await svc(root, 'task', 'note', id, 'mine', '--agent', 'dev', '--session', session)).code, 0);
  assert.is((await svc(root, 'task', 'note', id, 'from a human')).code, 0);
  const text = readFileSync(`${root}/tasks/in-progress/${id}.md`, 'utf8');
  assert.match(text, /- \S+ dev: mine\n- \S+ operator: from a human\n$/);
  assert.not.match(text, /late/);
});

note('bad input is refused with what was expected, changing nothing', async () => {
  const root = tempRoot();
  const id = firstLine((await svc(root, 'task', 'create', 'Clean')).stdout);
  const before = readFileSync(`${root}/tasks/backlog/${id}.md`, 'utf8');
  const escape = await svc(root, 'task', 'note', id, 'red \u001b[31m text');
  assert.is(escape.code, 1);
  assert.match(escape.stderr, /control character \\u001b at offset 4/);
  assert.match(escape.stderr, /hint: Remove the control characters/);
  const blank = await svc(root, 'task', 'note', id, '  ');
  assert.match(blank.stderr, /The note is empty/);
  const missing = await svc(root, 'task', 'note', '999', 'x', '--json');
  assert.equal([missing.code, JSON.parse(missing.stderr).error.code], [1, 'not_found']);
  assert.is((await svc(root, 'task', 'note', id)).code, 2);
  assert.is(readFileSync(`${root}/tasks/backlog/${id}.md`, 'utf8'), before);
});

note('through a running daemon the note is one call, and the daemon index is told', async () => {
  const root = tempRoot();
  const id = firstLine((await svc(root, 'task', 'create', 'Served')).stdout);
  const daemon = await startTestDaemon(root, {
    schedule: false,
    watch: false,
    rescanIntervalMs: 600_000,
    tools: [...TOOLS, ...OPERATOR_TOOLS],
  });
  const before = daemon.index.get(id)!.updatedAt;
  const out = await svc(root, 'task', 'note', id, 'over', 'the', 'socket');
  assert.is(out.stdout, `${id} noted (backlog)\n`, out.stderr);
  assert.match(readFileSync(`${root}/tasks/backlog/${id}.md`, 'utf8'), /operator: over the socket\n$/);
  assert.ok(daemon.index.get(id)!.updatedAt > before);
});

note('notes of several processes racing through a running daemon all land', async () => {
  const root = tempRoot();
  const id = firstLine((await svc(root, 'task', 'create', 'Raced', '--body', 'Keep me.')).stdout);
  await startTestDaemon(root, { schedule: false, tools: [...TOOLS, ...OPERATOR_TOOLS] });
  const script = (w: number) =>
    `for i in 1 2 3 4; do "$NODE" "$BIN" ${w % 2 ? `tool svc_task_note '{"taskId":"${id}","actor":"a${w}","text":"w${w} n'$i'"}'` : `task note ${id} w${w} n$i`} >/dev/null || exit 1; done`;
  const codes = await Promise.all(
    [0, 1, 2, 3].map(
      (w) =>
        new Promise<number | null>((resolve) => {
          spawn('sh', ['-c', script(w)], {
            env: { ...process.env, SVC_HOME: root, NODE: process.execPath, BIN: SVC_BIN },
            stdio: 'inherit',
          }).on('close', resolve);
        }),
    ),
  );
  assert.equal(codes, [0, 0, 0, 0]);
  const text = readFileSync(`${root}/tasks/backlog/${id}.md`, 'utf8');
  assert.ok(text.includes('\nKeep me.\n\n## Notes\n\n'), text);
  for (const w of [0, 1, 2, 3])
    for (const i of [1, 2, 3, 4]) assert.match(text, new RegExp(`Z ${w % 2 ? `a${w}` : 'operator'}: w${w} n${i}\n`));
  assert.is(text.match(/^- \d{4}-/gm)!.length, 16);
});

note.run();
