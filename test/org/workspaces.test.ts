import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { checkBranchTemplate, checkDirTemplate, toSlug, whyInvalidRef } from '../../lib/core/branch-template.js';
import { dumpYaml } from '../../lib/fs/frontmatter.js';
import { svc } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

function writeChart(
  root: string,
  aof: Record<string, unknown>,
  agents: unknown[] = [{ id: 'dev', name: 'Dev' }],
): void {
  mkdirSync(join(root, 'org'), { recursive: true });
  writeFileSync(join(root, 'org', 'org-chart.yaml'), dumpYaml({ schemaVersion: 1, agents, aof }));
}

const validate = suite('org.checkWorkspaces');
validate.after.each(cleanRoots);

validate('a workspace on an absolute git repository, with the default templates, is valid', async () => {
  const root = tempRoot();
  const repo = makeRepo(join(root, 'repo'));
  writeChart(
    root,
    {
      workspaces: { app: { repo, base: 'main', root: '~/.svc/worktrees' } },
      checks: { test: { run: ['npm', 'test'] } },
    },
    [{ id: 'dev', name: 'Dev', workspace: 'app' }],
  );
  const result = await svc(root, 'org', 'validate');
  assert.is(result.code, 0, result.stderr);
});

validate('svc org validate lists every workspace problem at once, naming the field', async () => {
  const root = tempRoot();
  const repo = makeRepo(join(root, 'repo'));
  mkdirSync(join(root, 'plain'));
  writeChart(
    root,
    {
      workspaces: {
        relative: { repo: 'repo' },
        plain: { repo: join(root, 'plain') },
        refs: { repo, branch: 'svc/{id}..{slug}' },
        nameless: { repo, branch: 'svc/work' },
        typo: { repo, branch: 'svc/{ticket}' },
        escape: { repo, dir: '../{id}' },
        rooted: { repo, root: 'worktrees' },
      },
    },
    [
      { id: 'dev', name: 'Dev', workspace: 'relativ' },
      { id: 'ops', name: 'Ops', workspace: 'nowhere' },
      { id: 'svc', name: 'Impostor' },
    ],
  );
  const result = await svc(root, 'org', 'validate');
  assert.is(result.code, 1);
  const text = result.stderr;
  assert.match(text, /aof\.workspaces\.relative\.repo: must be an absolute path to a git repository \(found "repo"\)/);
  assert.match(text, new RegExp(`aof\\.workspaces\\.plain\\.repo: ${join(root, 'plain')} is not a git repository`));
  assert.match(
    text,
    /aof\.workspaces\.refs\.branch: makes an invalid branch name \("svc\/TASK-2026-01-01-001\.\.a-sample-title": contains "\.\."\)/,
  );
  assert.match(text, /aof\.workspaces\.nameless\.branch: must contain \{id\}/);
  assert.match(
    text,
    /aof\.workspaces\.typo\.branch: unknown placeholder \{ticket\} \(known: \{id\}, \{slug\}, \{root\}\)/,
  );
  assert.match(text, /aof\.workspaces\.escape\.dir: could escape the workspace root/);
  assert.match(text, /aof\.workspaces\.rooted\.root: must be an absolute path or start with ~\//);
  assert.match(
    text,
    /agents\[0\]\.workspace: unknown workspace "relativ" \(known workspaces: .*\)\. Did you mean "relative"\?/,
  );
  assert.match(text, /agents\[1\]\.workspace: unknown workspace "nowhere"/);
  assert.match(text, /agents\[2\]\.id: "svc" is reserved/);
});

validate('a workflow gate naming a check the org chart does not define is refused by svc doctor', async () => {
  const root = tempRoot();
  writeChart(root, { checks: { test: { run: ['npm', 'test'] } } });
  mkdirSync(join(root, 'org', 'workflows'));
  writeFileSync(
    join(root, 'org', 'workflows', 'ship.yaml'),
    'workflow:\n  name: ship\n  gates:\n    - id: build\n      role: builder\n      verify: [tets]\n',
  );
  writeFileSync(
    join(root, 'org', 'org-chart.yaml'),
    dumpYaml({
      schemaVersion: 1,
      agents: [{ id: 'dev', name: 'Dev' }],
      roles: { builder: { agents: ['dev'] } },
      aof: { checks: { test: { run: ['npm', 'test'] } } },
    }),
  );
  const result = await svc(root, 'doctor');
  assert.is(result.code, 1);
  assert.match(
    result.stdout,
    /workflow\.gates\[0\]\.verify\[0\]: unknown check "tets" \(org chart checks: test\)\. Did you mean "test"\?/,
  );
});

const templates = suite('core.branch-template');

templates('slugs are lowercase [a-z0-9-], at most 40 characters', () => {
  assert.is(toSlug('Fix the Login page: ÄÖ & more!!'), 'fix-the-login-page-more');
  assert.is(toSlug('x'.repeat(60)).length, 40);
  assert.is(toSlug('!!!'), 'task');
});

templates('ref names follow git check-ref-format', () => {
  for (const bad of ['a..b', 'a b', 'a~1', '-a', 'a/', 'a//b', 'a.lock', '.a', 'a@{1}', 'a:b', 'a\x01'])
    assert.ok(whyInvalidRef(bad), bad);
  for (const good of ['svc/TASK-2026-01-01-001', 'feature/x-y_z', 'a.b']) assert.is(whyInvalidRef(good), null, good);
  assert.equal(checkBranchTemplate('svc/{id}-{slug}'), []);
  assert.equal(checkDirTemplate('{id}', '/w'), []);
  assert.equal(checkDirTemplate('/etc/{id}', '/w'), [
    'could escape the workspace root (use a relative folder such as "{id}", without "." or ".." parts)',
  ]);
});

validate.run();
templates.run();
