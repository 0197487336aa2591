import { relative } from 'node:path';
import type { DanglingDependency, TaskCycle } from '../store/changes/dangling.js';
import {
  isFixable,
  RECONCILE_KINDS,
  type ReconcileAction,
  type ReconcileKind,
  type ReconcilePlan,
} from '../store/changes/reconcile.js';
import type { ReconcileResult } from '../store/changes/reconcile-apply.js';
import type { RuntimeCheck } from '../adapters/runtimes/probe.js';
import type { WorkspaceRecord } from '../workspace/records.js';
import type { ConfigProblem, SpoolCheck } from './doctor-checks.js';
import type { Context } from './frame/context.js';

/**
 * How to print the report (`json`), and what the summary line must not call clean: configuration problems, spooled
 * events.
 */
export interface Elsewhere {
  /** Print one JSON object instead of lines. */
  json: boolean;
  config: readonly ConfigProblem[];
  /** The CLI of each runtime agent: its version, or why it cannot run. */
  runtimes: readonly RuntimeCheck[];
  /** Set for `--json`, where it is part of the object. */
  spool: SpoolCheck | undefined;
  elsewhere: boolean;
  /** Dependencies on ids that are no task (reported, never changed). */
  dangling: DanglingDependency[];
  /** Dependency and parent cycles (reported, never changed): their tasks wait forever. */
  cycles: TaskCycle[];
  /** Worktrees svc created and kept at the end of their task (uncommitted changes). */
  keptWorktrees: WorkspaceRecord[];
}

/** Prints what the event spool holds, or what `--fix` did with it. */
export function printSpool(ctx: Context, spool: SpoolCheck): void {
  if (spool.files === 0) return;
  if (spool.error !== undefined) {
    ctx.print(
      `failed: appending the events of data/events-spool/ (${plural(spool.files, ['file', 'files'])}): ${spool.error}`,
    );
    ctx.print('hint: check that data/events/ is writable, then run `svc doctor --fix` again.');
  } else if (spool.appended !== undefined) {
    ctx.print(
      `fixed: appended ${plural(spool.appended, ['spooled event', 'spooled events'])} ` +
        `from data/events-spool/ to the event log`,
    );
    if (spool.problem)
      ctx.print(
        'data/events-spool/ still holds files another svc process is appending; run `svc doctor` again in a moment.',
      );
  } else {
    ctx.print(
      `events: ${plural(spool.files, ['spool file', 'spool files'])} ` +
        `in data/events-spool/ not yet appended to the event log`,
    );
    ctx.print(
      'hint: run `svc doctor --fix` (or `svc events`) to append them; a running ' +
        'daemon appends them within a second once data/events/ is writable.',
    );
  }
}

/** Prints the dependency and parent cycles, with a hint for each kind. */
export function printCycles(ctx: Context, cycles: readonly TaskCycle[]): void {
  for (const { kind, ids } of cycles)
    ctx.print(
      `${kind} cycle: ${ids.join(' -> ')} ` +
        `(${kind === 'dependency' ? 'these tasks wait on each other forever' : "each is the other's parent"})`,
    );
  if (cycles.some((cycle) => cycle.kind === 'dependency'))
    ctx.print(
      'hint: remove one dependency of each cycle: svc tool ' +
        'svc_task_dep_remove \'{"taskId":"<id>","blockerId":"<id>"}\'.',
    );
  if (cycles.some((cycle) => cycle.kind === 'parent'))
    ctx.print(
      'hint: edit one task of each parent cycle: remove its parentId ' +
        'line from the frontmatter (svc task show <id> names its file).',
    );
}

/** Prints the configuration files that do not load, with their problems. */
export function printConfig(ctx: Context, config: readonly ConfigProblem[]): void {
  for (const { file, problems } of config) {
    ctx.print(
      `invalid ${file.endsWith('org-chart.yaml') ? 'org chart' : 'workflow'}: ` +
        `${file} (${plural(problems.length, ['problem', 'problems'])})`,
    );
    for (const problem of problems) ctx.print(`  ${problem}`);
  }
  if (config.length)
    ctx.print(
      'hint: fix the listed fields (svc org validate checks the org chart); ' +
        'a daemon holds ready tasks while no valid org chart is loaded.',
    );
}

/**
 * A missing status directory (or its `.gitkeep`) is no problem: svc creates it when first needed, as on a fresh root;
 * `--fix` creates it now.
 */
export function printPlan(
  ctx: Context,
  plan: ReconcilePlan,
  { json, config, runtimes, spool, elsewhere, dangling, cycles, keptWorktrees }: Elsewhere,
): void {
  const actions = plan.actions.filter((action) => action.kind !== 'missing');
  const notCreated = plan.actions.filter((action) => action.kind === 'missing');
  ctx.exitCode = actions.length ? 1 : 0;
  if (json) {
    const problems =
      actions.length + config.length + countCliProblems(runtimes) + (spool?.problem ? 1 : 0) + cycles.length;
    return ctx.json({
      ok: problems === 0,
      problems,
      counts: toCounts(actions),
      actions,
      notCreated: notCreated.map((action) => action.path),
      config,
      runtimes,
      eventSpool: spool,
      dangling,
      cycles,
      keptWorktrees,
    });
  }
  for (const action of actions) ctx.print(action.line);
  if (notCreated.length)
    ctx.print(
      `not created yet (svc creates them when first needed; \`svc doctor --fix\` creates ` +
        `them now): ${notCreated.map((action) => relative(ctx.root, action.path)).join(', ')}`,
    );
  ctx.print(
    actions.length ? `${toSummary(actions, 'problem')}` : elsewhere ? 'tasks tree: no problems' : 'ok: no problems',
  );
  if (actions.some((action) => isFixable(action.kind))) ctx.print('hint: run `svc doctor --fix` to apply the fixes.');
  if (actions.some((action) => action.kind === 'invalid')) ctx.print(`hint: ${INVALID_HINT}`);
}

/** Prints what `svc doctor --fix` applied, what failed and what is only reported (or it as JSON). */
export function printResult(
  ctx: Context,
  result: ReconcileResult,
  { json, config, runtimes, spool, elsewhere, dangling, cycles, keptWorktrees }: Elsewhere,
): void {
  const invalid = result.remaining.filter((action) => action.kind === 'invalid');
  ctx.exitCode = invalid.length || result.failed.length ? 1 : 0;
  if (json) {
    return ctx.json({
      ok: ctx.exitCode === 0 && !config.length && !countCliProblems(runtimes) && !spool?.problem && !cycles.length,
      fixed: result.applied.length,
      counts: toCounts(result.applied),
      ...result,
      config,
      runtimes,
      eventSpool: spool,
      dangling,
      cycles,
      keptWorktrees,
    });
  }
  for (const action of result.applied) ctx.print(`fixed: ${action.line}`);
  for (const { action, message } of result.failed) ctx.print(`failed: ${action.line}: ${message}`);
  for (const action of result.remaining) ctx.print(action.line);
  const clean = !result.failed.length && !result.remaining.length;
  const parts = [
    result.applied.length
      ? `fixed ${toSummary(result.applied, 'problem')}`
      : clean
        ? elsewhere
          ? 'tasks tree: no problems'
          : 'ok: no problems'
        : 'nothing fixed',
  ];
  if (result.failed.length) parts.push(`${result.failed.length} failed`);
  if (result.remaining.length) parts.push(`reported, not changed: ${toSummary(result.remaining, 'file')}`);
  ctx.print(parts.join('; '));
  if (result.failed.length)
    ctx.print('hint: run `svc doctor --fix` again once no other svc process holds those tasks.');
  if (invalid.length) ctx.print(`hint: ${INVALID_HINT}`);
}

// --- internal ---

const NOUNS: Record<ReconcileKind, [string, string]> = {
  missing: ['missing directory', 'missing directories'],
  temporary: ['temporary file', 'temporary files'],
  duplicate: ['duplicate', 'duplicates'],
  heal: ['heal', 'heals'],
  invalid: ['invalid file', 'invalid files'],
  stray: ['stray file', 'stray files'],
};

const INVALID_HINT =
  'fix the listed files (or move them out of tasks/); they are left out of ' +
  'scheduling until they parse, and svc doctor reports them until then.';

function countCliProblems(runtimes: readonly RuntimeCheck[]): number {
  return runtimes.filter((check) => check.problem).length;
}

function toCounts(actions: readonly ReconcileAction[]): Partial<Record<ReconcileKind, number>> {
  const counts: Partial<Record<ReconcileKind, number>> = {};
  for (const action of actions) counts[action.kind] = (counts[action.kind] ?? 0) + 1;
  return counts;
}

function toSummary(actions: readonly ReconcileAction[], noun: string): string {
  const counts = toCounts(actions);
  const parts = RECONCILE_KINDS.filter((kind) => counts[kind]).map((kind) => plural(counts[kind]!, NOUNS[kind]));
  return `${plural(actions.length, [noun, `${noun}s`])}: ${parts.join(', ')}`;
}

function plural(count: number, [one, many]: [string, string]): string {
  return `${count} ${count === 1 ? one : many}`;
}
