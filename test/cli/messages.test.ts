import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { svc } from '../helpers/cli.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

const firstLine = (text: string) => text.split('\n')[0]!;

const messages = suite('cli messages');
messages.after.each(cleanRoots);

messages("svc tool <name> with params that are not JSON hints the tool's own required parameters", async () => {
  const root = tempRoot();
  const dispatch = await svc(root, 'tool', 'svc_dispatch', '<not json>');
  assert.is(dispatch.code, 1);
  assert.match(dispatch.stderr, /^svc: params is not JSON: /);
  assert.ok(
    dispatch.stderr.includes(
      `hint: Pass a JSON object in single quotes, e.g. svc tool svc_dispatch '{"title":"...","brief":"..."}' (the parameters svc_dispatch requires;`,
    ),
    dispatch.stderr,
  );
  assert.not.match(dispatch.stderr, /taskId/, 'svc_dispatch takes no taskId');
  const block = await svc(root, 'tool', 'svc_task_block', 'nope');
  assert.ok(block.stderr.includes(`'{"taskId":"...","reason":"..."}'`), block.stderr);
  assert.ok(
    (await svc(root, 'tool', 'svc_status', '{')).stderr.includes(`svc tool svc_status '{}' (svc_status requires none;`),
  );
});

messages('svc task block <id> without a reason hints --reason on the command line, and changes nothing', async () => {
  const root = tempRoot();
  const id = firstLine((await svc(root, 'task', 'create', 'Blocked soon')).stdout);
  const out = await svc(root, 'task', 'block', id);
  assert.is(out.code, 1);
  assert.is(
    out.stderr,
    `svc: Blocking ${id} needs a reason: none was given.\nhint: Say what the task waits for: svc task block ${id} --reason "waiting for API keys"\n`,
  );
  assert.not.match(out.stderr, /reason: "/);
  assert.ok(existsSync(`${root}/tasks/backlog/${id}.md`));
});

messages(
  'a SVC_HOME that does not exist: every reading command says so (exit 1) and creates nothing; creating commands create it',
  async () => {
    const root = join(tempRoot(), 'not-here');
    for (const argv of [
      ['task', 'list'],
      ['task', 'show', '001'],
      ['board'],
      ['events'],
      ['doctor'],
      ['scheduler', 'run'],
      ['daemon', 'status'],
      ['org', 'validate'],
      ['tool', 'svc_status'],
    ]) {
      const out = await svc(root, ...argv);
      assert.is(out.code, 1, argv.join(' '));
      assert.is(out.stdout, '', argv.join(' '));
      assert.ok(
        out.stderr.startsWith(`svc: The svc root ${root} does not exist (it is SVC_HOME, default ~/.svc)`),
        `${argv.join(' ')}: ${out.stderr}`,
      );
      assert.match(out.stderr, /hint: Point SVC_HOME at an existing root, or create this one: `svc quickstart`/);
      assert.not.ok(existsSync(root), `${argv.join(' ')} created the root`);
    }
    assert.is((await svc(root, 'task', 'list', '--help')).code, 0, 'help needs no root');
    const created = await svc(root, 'task', 'create', 'First task');
    assert.is(created.code, 0, created.stderr);
    assert.equal(readdirSync(`${root}/tasks/backlog`).filter((name) => name.endsWith('.md')).length, 1);
    assert.match((await svc(root, 'task', 'list')).stdout, /First task/);
  },
);

messages(
  'svc task show -- -003: the word after -- is the id; one that cannot be an id is a clear usage error',
  async () => {
    const root = tempRoot();
    for (const title of ['One', 'Two', 'Three']) await svc(root, 'task', 'create', title);
    const shown = await svc(root, 'task', 'show', '--', '-003');
    assert.is(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /title: Three/);
    const missing = await svc(root, 'task', 'show', '--', '-009');
    assert.is(missing.code, 1);
    assert.match(missing.stderr, /No task has the sequence number "-009"/);
    const bad = await svc(root, 'task', 'show', '--', '-x');
    assert.is(bad.code, 2);
    assert.match(
      bad.stderr,
      /^svc: "-x" is not a task id: an id is a full id \(TASK-2026-11-21-007\), a unique prefix of one, or a sequence such as 7, 007 or -007\.\nhint: List the ids with `svc task list`, then run svc task show <id>\.\n$/,
    );
    assert.not.match(bad.stderr, /missing required args/);
  },
);

messages(
  'an unknown status or priority is a usage error: exit 2, as docs/command-line.md says, with the values to use',
  async () => {
    const root = tempRoot();
    const id = firstLine((await svc(root, 'task', 'create', 'X')).stdout);
    const cases: Array<[string[], RegExp]> = [
      [['task', 'status', id, 'doing'], /Unknown status "doing"/],
      [['task', 'update', id, '--status', 'doing'], /Unknown status "doing"/],
      [['task', 'list', '--status', 'finished'], /Unknown status "finished"/],
      [
        ['task', 'create', 'Y', '--priority', 'urgent'],
        /Unknown priority "urgent"\.\nhint: Use one of: low, normal, high, critical\./,
      ],
    ];
    for (const [argv, message] of cases) {
      const out = await svc(root, ...argv);
      assert.is(out.code, 2, argv.join(' '));
      assert.match(out.stderr, message);
    }
    const json = await svc(root, 'task', 'list', '--status', 'finished', '--json');
    assert.equal([json.code, JSON.parse(json.stderr).error.code], [2, 'validation_error']);
  },
);

messages(
  "the invalid-transition hint lists every move a caller can make, reserved ones with who makes them, and leaves out the scheduler's deadletter",
  async () => {
    const root = tempRoot();
    const id = firstLine((await svc(root, 'task', 'create', 'X')).stdout);
    const out = await svc(root, 'task', 'status', id, 'done');
    assert.is(out.code, 1);
    assert.match(
      out.stderr,
      new RegExp(
        `svc: ${id} cannot move from backlog to done \\(only by close\\)\\.\\nhint: From backlog, ${id} can move to: ready, blocked, done \\(only by close\\), cancelled\\.\\n`,
      ),
    );
    await svc(root, 'task', 'promote', id);
    const ready = await svc(root, 'task', 'status', id, 'in-progress');
    assert.match(
      ready.stderr,
      /can move to: backlog, in-progress \(only by dispatch or claim\), blocked, done \(only by close\), cancelled\./,
    );
  },
);

messages('svc task create --agent nobody is refused as svc_dispatch refuses it, creating nothing', async () => {
  const root = tempRoot();
  mkdirSync(`${root}/org`, { recursive: true });
  writeFileSync(
    `${root}/org/org-chart.yaml`,
    'schemaVersion: 1\nagents:\n  - { id: dev, name: Dev }\nteams:\n  - { id: core, name: Core }\n',
  );
  const cli = await svc(root, 'task', 'create', 'Lost', '--agent', 'nobody');
  const tool = await svc(root, 'tool', 'svc_dispatch', '{"title":"Lost","brief":"b","agent":"nobody"}');
  assert.equal([cli.code, tool.code], [1, 1]);
  assert.match(
    cli.stderr,
    /The org chart does not know this routing:\n  routing\.agent: unknown agent "nobody" \(known agents: dev\)/,
  );
  assert.is(cli.stderr, tool.stderr, 'the same refusal');
  assert.match(
    (await svc(root, 'task', 'create', 'Lost', '--team', 'nowhere')).stderr,
    /unknown team "nowhere" \(known teams: core\)/,
  );
  assert.not.ok(
    existsSync(`${root}/tasks/backlog`) && readdirSync(`${root}/tasks/backlog`).some((name) => name.endsWith('.md')),
    'nothing created',
  );
  assert.is((await svc(root, 'task', 'create', 'Found', '--agent', 'dev')).code, 0);
});

messages.run();
