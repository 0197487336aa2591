import { relative } from 'node:path';
import type { CAC } from 'cac';
import { toProblemLines } from '../daemon/scheduling/org-state.js';
import { loadOrg } from '../org/org-chart.js';
import { listWorkflows, loadWorkflow } from '../org/workflow.js';
import { countSpooled, mergeEventSpool } from '../store/events/spool.js';
import { checkTaskLinks, type DanglingDependency, type TaskCycle } from '../store/changes/dangling.js';
import { isFixable, planReconcile, RECONCILE_KINDS, type ReconcileAction, type ReconcileKind, type ReconcilePlan } from '../store/changes/reconcile.js';
import { applyReconcile, type ReconcileResult } from '../store/changes/reconcile-apply.js';
import { toTerminalText } from '../core/text.js';
import { listRecords, type WorkspaceRecord } from '../workspace/records.js';
import type { Context } from './frame/context.js';

interface DoctorOptions {
  fix?: boolean;
  json?: boolean;
}

/** A configuration file that does not load, with its problems (`path: problem` lines). */
export interface ConfigProblem {
  file: string;
  problems: string[];
}

/** Registers `svc doctor [--fix] [--json]`: checks the org chart and workflows, prints the reconcile plan, or applies it. */
export function registerDoctor(cli: CAC, ctx: Context): void {
  cli
    .command('doctor', 'Check the org chart, the workflows and the tasks tree: heals, duplicates, temporaries, invalid and stray files')
    .option('--fix', 'Apply the fixes (invalid and stray files, and configuration problems, are only reported)')
    .option('--json', 'Print the plan or the result as a JSON object')
    .action(async (options: DoctorOptions) => {
      const store = ctx.store();
      const config = await checkConfig(ctx.root);
      const plan = await planReconcile(store.paths, store.clock());
      const spool = await checkSpool(ctx.root, options.fix === true);
      const json = options.json === true;
      const { dangling, cycles } = await checkTaskLinks(store.paths);
      const keptWorktrees = (await listRecords(store.paths.workspaces)).filter((record) => record.kept);
      if (!json) {
        for (const { taskId, path, branch, kept } of keptWorktrees) ctx.print(`kept worktree: ${taskId} at ${toTerminalText(path)} (branch ${toTerminalText(branch)}): ${toTerminalText(kept!.reason)}; svc task workspace ${taskId} --remove [--force] removes it`);
        printConfig(ctx, config);
        printSpool(ctx, spool);
        for (const { id, missing } of dangling) ctx.print(`dangling dependency: ${id} depends on ${missing.join(', ')}, which ${missing.length === 1 ? 'is not a task' : 'are not tasks'} (the task waits until they exist)`);
        printCycles(ctx, cycles);
      }
      const other = { config, spool: json ? spool : undefined, elsewhere: config.length > 0 || spool.problem || cycles.length > 0, dangling, cycles, keptWorktrees };
      if (!options.fix) printPlan(ctx, plan, json, other);
      else printResult(ctx, await applyReconcile(store.paths, plan, 'doctor', { events: store.events }), json, other);
      if (config.length || spool.problem || cycles.length) ctx.exitCode = 1;
    });
}

/** Loads the org chart and every workflow of `root`; returns the files that do not load, with their problems. */
export async function checkConfig(root: string): Promise<ConfigProblem[]> {
  const out: ConfigProblem[] = [];
  const org = await loadOrg(root, { repos: true }).catch((err: unknown) => {
    out.push({ file: 'org/org-chart.yaml', problems: toProblemLines(err) });
    return null;
  });
  for (const name of await listWorkflows(root)) {
    await loadWorkflow(root, name, { org }).catch((err: unknown) => out.push({ file: relative(root, `${root}/org/workflows/${name}.yaml`), problems: toProblemLines(err) }));
  }
  return out;
}

/** Event lines spooled while `data/events/` could not be appended (docs/events.md), and what `--fix` did with them. */
export interface SpoolCheck {
  /** Spool files found (claims of a merge in progress included). */
  files: number;
  /** Lines appended by `--fix`. */
  appended?: number;
  /** Why `--fix` could not append them. */
  error?: string;
  /** Spooled events are still not in the event log. */
  problem: boolean;
}

/** Counts the spool files of `root`; with `fix`, appends them to the event log first. */
export async function checkSpool(root: string, fix: boolean): Promise<SpoolCheck> {
  const files = await countSpooled(root);
  if (!fix || files === 0) return { files, problem: files > 0 };
  try {
    const appended = await mergeEventSpool(root);
    return { files, appended, problem: (await countSpooled(root)) > 0 };
  } catch (err) {
    return { files, error: err instanceof Error ? err.message : String(err), problem: true };
  }
}

// --- internal ---

/** What the summary line must not call clean: configuration problems, spooled events. */
interface Elsewhere {
  config: readonly ConfigProblem[];
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

function printSpool(ctx: Context, spool: SpoolCheck): void {
  if (spool.files === 0) return;
  if (spool.error !== undefined) {
    ctx.print(`failed: appending the events of data/events-spool/ (${plural(spool.files, ['file', 'files'])}): ${spool.error}`);
    ctx.print('hint: check that data/events/ is writable, then run `svc doctor --fix` again.');
  } else if (spool.appended !== undefined) {
    ctx.print(`fixed: appended ${plural(spool.appended, ['spooled event', 'spooled events'])} from data/events-spool/ to the event log`);
    if (spool.problem) ctx.print('data/events-spool/ still holds files another svc process is appending; run `svc doctor` again in a moment.');
  } else {
    ctx.print(`events: ${plural(spool.files, ['spool file', 'spool files'])} in data/events-spool/ not yet appended to the event log`);
    ctx.print('hint: run `svc doctor --fix` (or `svc events`) to append them; a running daemon appends them within a second once data/events/ is writable.');
  }
}

const NOUNS: Record<ReconcileKind, [string, string]> = {
  missing: ['missing directory', 'missing directories'],
  temporary: ['temporary file', 'temporary files'],
  duplicate: ['duplicate', 'duplicates'],
  heal: ['heal', 'heals'],
  invalid: ['invalid file', 'invalid files'],
  stray: ['stray file', 'stray files'],
};

const INVALID_HINT = 'fix the listed files (or move them out of tasks/); they are left out of scheduling until they parse, and svc doctor reports them until then.';

function printCycles(ctx: Context, cycles: readonly TaskCycle[]): void {
  for (const { kind, ids } of cycles) ctx.print(`${kind} cycle: ${ids.join(' -> ')} (${kind === 'dependency' ? 'these tasks wait on each other forever' : 'each is the other\'s parent'})`);
  if (cycles.some((cycle) => cycle.kind === 'dependency')) ctx.print('hint: remove one dependency of each cycle: svc tool svc_task_dep_remove \'{"taskId":"<id>","blockerId":"<id>"}\'.');
  if (cycles.some((cycle) => cycle.kind === 'parent')) ctx.print('hint: edit one task of each parent cycle: remove its parentId line from the frontmatter (svc task show <id> names its file).');
}

function printConfig(ctx: Context, config: readonly ConfigProblem[]): void {
  for (const { file, problems } of config) {
    ctx.print(`invalid ${file.endsWith('org-chart.yaml') ? 'org chart' : 'workflow'}: ${file} (${plural(problems.length, ['problem', 'problems'])})`);
    for (const problem of problems) ctx.print(`  ${problem}`);
  }
  if (config.length) ctx.print('hint: fix the listed fields (svc org validate checks the org chart); a daemon holds ready tasks while no valid org chart is loaded.');
}

/** A missing status directory (or its `.gitkeep`) is no problem: svc creates it when first needed, as on a fresh root; `--fix` creates it now. */
function printPlan(ctx: Context, plan: ReconcilePlan, json: boolean, { config, spool, elsewhere, dangling, cycles, keptWorktrees }: Elsewhere): void {
  const actions = plan.actions.filter((action) => action.kind !== 'missing');
  const notCreated = plan.actions.filter((action) => action.kind === 'missing');
  ctx.exitCode = actions.length ? 1 : 0;
  if (json) {
    const problems = actions.length + config.length + (spool?.problem ? 1 : 0) + cycles.length;
    return ctx.json({ ok: problems === 0, problems, counts: toCounts(actions), actions, notCreated: notCreated.map((action) => action.path), config, eventSpool: spool, dangling, cycles, keptWorktrees });
  }
  for (const action of actions) ctx.print(action.line);
  if (notCreated.length) ctx.print(`not created yet (svc creates them when first needed; \`svc doctor --fix\` creates them now): ${notCreated.map((action) => relative(ctx.root, action.path)).join(', ')}`);
  ctx.print(actions.length ? `${toSummary(actions, 'problem')}` : elsewhere ? 'tasks tree: no problems' : 'ok: no problems');
  if (actions.some((action) => isFixable(action.kind))) ctx.print('hint: run `svc doctor --fix` to apply the fixes.');
  if (actions.some((action) => action.kind === 'invalid')) ctx.print(`hint: ${INVALID_HINT}`);
}

function printResult(ctx: Context, result: ReconcileResult, json: boolean, { config, spool, elsewhere, dangling, cycles, keptWorktrees }: Elsewhere): void {
  const invalid = result.remaining.filter((action) => action.kind === 'invalid');
  ctx.exitCode = invalid.length || result.failed.length ? 1 : 0;
  if (json) {
    return ctx.json({ ok: ctx.exitCode === 0 && config.length === 0 && !spool?.problem && !cycles.length, fixed: result.applied.length, counts: toCounts(result.applied), ...result, config, eventSpool: spool, dangling, cycles, keptWorktrees });
  }
  for (const action of result.applied) ctx.print(`fixed: ${action.line}`);
  for (const { action, message } of result.failed) ctx.print(`failed: ${action.line}: ${message}`);
  for (const action of result.remaining) ctx.print(action.line);
  const clean = !result.failed.length && !result.remaining.length;
  const parts = [result.applied.length ? `fixed ${toSummary(result.applied, 'problem')}` : clean ? (elsewhere ? 'tasks tree: no problems' : 'ok: no problems') : 'nothing fixed'];
  if (result.failed.length) parts.push(`${result.failed.length} failed`);
  if (result.remaining.length) parts.push(`reported, not changed: ${toSummary(result.remaining, 'file')}`);
  ctx.print(parts.join('; '));
  if (result.failed.length) ctx.print('hint: run `svc doctor --fix` again once no other svc process holds those tasks.');
  if (invalid.length) ctx.print(`hint: ${INVALID_HINT}`);
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
