import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { STATUSES } from '../../lib/core/status.js';
import { ensureAgentCli } from '../helpers/agent-clis.js';
import { svc } from '../helpers/cli.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

const doctor = suite('cli.doctor');
doctor.after.each(cleanRoots);

doctor(
  'a fresh root is fine: the status directories svc creates when needed are named, not counted as problems, and exit is 0',
  async () => {
    const root = tempRoot();
    const plan = await svc(root, 'doctor');
    assert.is(plan.code, 0, plan.stdout);
    assert.match(
      plan.stdout,
      /^not created yet \(svc creates them when first needed; `svc doctor --fix` creates them now\): tasks\/backlog, tasks\/ready, /,
    );
    assert.match(plan.stdout, /\nok: no problems\n$/);
    const json = JSON.parse((await svc(root, 'doctor', '--json')).stdout) as {
      ok: boolean;
      problems: number;
      notCreated: string[];
    };
    assert.equal([json.ok, json.problems, json.notCreated.length], [true, 0, STATUSES.length]);
    assert.is((await svc(root, 'doctor', '--fix')).code, 0);
    for (const status of STATUSES) assert.ok(existsSync(`${root}/tasks/${status}/.gitkeep`), status);
    assert.is((await svc(root, 'doctor')).stdout, 'ok: no problems\n');
  },
);

doctor.run();

const runtimes = suite('cli.doctor runtime agents');
runtimes.after.each(cleanRoots);

function writeChart(root: string, yaml: string): void {
  mkdirSync(join(root, 'org'), { recursive: true });
  writeFileSync(join(root, 'org', 'org-chart.yaml'), yaml);
}

runtimes("prints each runtime CLI's version; a bin that does not exist is a problem with its hint", async () => {
  const root = tempRoot();
  const claude = await ensureAgentCli('claude-code');
  const missing = join(root, 'no', 'codex');
  writeChart(
    root,
    `schemaVersion: 1\nagents:\n  - { id: coder, name: Coder, runtime: claude-code, bin: ${claude.bin} }\n` +
      `  - { id: reviewer, name: Reviewer, runtime: codex, bin: ${missing} }\n`,
  );
  const text = await svc(root, 'doctor');
  assert.is(text.code, 1);
  assert.ok(
    text.stdout.startsWith(
      `agent coder (claude-code): ${claude.version} (Claude Code) (${claude.bin})\n` +
        `agent reviewer (codex): problem: ${missing} is not an executable file\n` +
        "  hint: Install it with `npm install -g @openai/codex`, or set agent reviewer's `bin` to the path",
    ),
    text.stdout,
  );
  assert.match(text.stdout, /\ntasks tree: no problems\n$/);
  const json = JSON.parse((await svc(root, 'doctor', '--json')).stdout) as {
    ok: boolean;
    problems: number;
    runtimes: Array<{ agent: string; version?: string; problem?: string }>;
  };
  assert.equal([json.ok, json.problems], [false, 1]);
  assert.equal(
    json.runtimes.map(({ agent, version, problem }) => ({ agent, version, problem })),
    [
      { agent: 'coder', version: `${claude.version} (Claude Code)`, problem: undefined },
      { agent: 'reviewer', version: undefined, problem: `${missing} is not an executable file` },
    ],
  );
});

runtimes('an unknown runtime is an invalid org chart with "Did you mean"', async () => {
  const root = tempRoot();
  writeChart(root, 'schemaVersion: 1\nagents:\n  - { id: coder, name: Coder, runtime: gemeni }\n');
  const result = await svc(root, 'doctor');
  assert.is(result.code, 1);
  assert.match(
    result.stdout,
    /^invalid org chart: org\/org-chart\.yaml \(1 problem\)\n  agents\[0\]\.runtime: unknown runtime "gemeni" \(known: claude-code, codex, gemini\)\. Did you mean "gemini"\?\n/,
  );
  assert.match(result.stdout, /\nhint: fix the listed fields \(svc org validate checks the org chart\)/);
});

runtimes.run();
