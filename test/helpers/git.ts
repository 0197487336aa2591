import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';

/** Runs git in `cwd`; returns its trimmed stdout. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** A git repository at `dir` on branch main with one commit (README.md), and a committer configured. */
export function makeRepo(dir: string): string {
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.name', 'Test');
  git(dir, 'config', 'user.email', 'test@example.com');
  git(dir, 'config', 'commit.gpgsign', 'false');
  writeFileSync(`${dir}/README.md`, '# repo\n');
  git(dir, 'add', 'README.md');
  git(dir, 'commit', '-q', '-m', 'initial');
  return dir;
}

/** The branches of a repository. */
export function branches(repo: string): string[] {
  return git(repo, 'branch', '--format=%(refname:short)').split('\n').filter(Boolean).sort();
}

/** argv of a node script agent: `body` runs with `fs`, `sh(cmd...)` (execFileSync, output returned), `env` and `complete(params)` in scope. */
export function scriptAgent(svcBin: string, body: string): string[] {
  const script = `
    const fs = require('node:fs');
    const { execFileSync } = require('node:child_process');
    const env = process.env;
    const sh = (...argv) => execFileSync(argv[0], argv.slice(1), { encoding: 'utf8' });
    const complete = (params) => execFileSync(process.execPath, [${JSON.stringify(svcBin)}, 'tool', 'svc_task_complete', JSON.stringify({ taskId: env.SVC_TASK_ID, sessionId: env.SVC_SESSION_ID, actor: env.SVC_AGENT, ...params })], { stdio: 'inherit' });
    ${body}
  `;
  return [process.execPath, '-e', script];
}
