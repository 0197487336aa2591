import { dirname, join } from 'node:path';
import { SvcError } from '../../core/errors.js';
import { toTerminalText } from '../../core/text.js';
import { findPackageRoot } from '../../core/package-root.js';
import { ensureDir, writeDurable } from '../../fs/atomic.js';
import { toOrgChartFile } from '../../org/files.js';
import {
  backupFile,
  readConfigText,
  readGatewayConfig,
  toGatewayConfigPath,
  toGatewayStateDir,
  writeGatewayConfig,
} from './config-file.js';
import { allowStep, memoryStep, pluginStep } from './gateway-steps.js';
import { mcpStep } from './mcp-step.js';
import { readOrgDraft, toOrgText, writeOrgDraft } from './org-draft.js';
import { findHostileIds, findWrongTypes } from './config-checks.js';
import type { Ask, InitState, Step, StepResult } from './step.js';
import { gatewayFromOrgStep, orgFromGatewayStep, skillStep, standaloneStep } from './sync-steps.js';

/** The steps, in order: later ones plan against the drafts as earlier ones left them. */
export const STEPS: readonly Step[] = [
  pluginStep,
  mcpStep,
  orgFromGatewayStep,
  gatewayFromOrgStep,
  allowStep,
  memoryStep,
  skillStep,
  standaloneStep,
];

/** How the wizard runs: apply everything (`yes`), ask on a terminal (`ask`), or only show the plan. */
export interface InitOptions {
  root: string;
  env: Record<string, string | undefined>;
  configOption?: string;
  yes: boolean;
  dryRun: boolean;
  /** Register `svc mcp` (standalone mode) instead of the plugin. */
  standalone?: boolean;
  /** Replace sections of the gateway config that have the wrong type (refused otherwise). */
  force?: boolean;
  ask?: Ask;
  now: Date;
}

/** What a run did: the files, the step results, the backups taken, whether anything was written. */
export interface InitReport {
  config: string;
  orgChart: string;
  applied: boolean;
  steps: StepResult[];
  /** Copies taken before the first write of each file, e.g. `openclaw.json.20261123T080000Z.bak`. */
  backups: { config?: string; orgChart?: string };
  /** True when the config had comments and was rewritten: they are only in the backup now. */
  commentsDropped: boolean;
}

/** Runs the wizard: plans each step, asks or applies, then writes every changed file (backups first). */
export async function runInit(options: InitOptions): Promise<InitReport> {
  const configFile = await readGatewayConfig(toGatewayConfigPath(options.configOption, options.env));
  const hostile = findHostileIds(configFile.config);
  if (hostile.length) {
    throw new SvcError(
      'validation_error',
      `${configFile.path}: agent ids with control characters (shown escaped): ${hostile.join(', ')}.`,
      'Rename these agents in the gateway config to plain ids (letters, digits, - and _); nothing was written.',
    );
  }
  const wrong = options.force ? [] : findWrongTypes(configFile.config);
  if (wrong.length) {
    throw new SvcError(
      'validation_error',
      `${configFile.path}: svc init writes into these sections, which ` +
        `have another type:\n${wrong.map((line) => `  ${line}`).join('\n')}`,
      'Fix them in the file, or run `svc init --force` to replace ' +
        'them (the backup keeps the old values); nothing was written.',
    );
  }
  const applies = !options.dryRun && (options.yes || Boolean(options.ask));
  const state: InitState = {
    root: options.root,
    packageRoot: findPackageRoot(),
    env: options.env,
    config: configFile.config,
    org: await readOrgDraft(toOrgChartFile(options.root)),
    skillFile: join(toGatewayStateDir(options.env), 'skills', 'svc', 'SKILL.md'),
    envFile: join(options.root, 'data', 'daemon.env'),
    files: new Map(),
    standalone: Boolean(options.standalone),
    ask: applies && !options.yes ? options.ask : undefined,
  };
  const before = JSON.stringify(configFile.config);
  const steps: StepResult[] = [];
  for (const step of STEPS) steps.push(await runStep(step, state, { applies }));
  const report: InitReport = {
    config: configFile.path,
    orgChart: state.org.file,
    applied: false,
    steps,
    backups: {},
    commentsDropped: false,
  };
  if (!applies) return report;
  const configChanged = JSON.stringify(configFile.config) !== before;
  if (state.org.changed) toOrgText(state.org); // an invalid result fails here, before any write
  if (configChanged) await assertUnchanged(configFile.path, configFile.original);
  if (state.org.changed) await assertUnchanged(state.org.file, state.org.original);
  if (configChanged) {
    report.backups.config = await backupFile(configFile.path, options.now);
    await writeGatewayConfig(configFile);
    report.commentsDropped = configFile.hasComments;
  }
  if (state.org.changed) {
    if (state.org.exists) report.backups.orgChart = await backupFile(state.org.file, options.now);
    await writeOrgDraft(state.org);
  }
  for (const [file, { content, mode }] of state.files) {
    await ensureDir(dirname(file));
    await writeDurable(file, content, mode);
  }
  report.applied = configChanged || state.org.changed || state.files.size > 0;
  return report;
}

// --- internal ---

/** Refuses to write over a file someone changed while the wizard ran (a gateway writing its config, an editor). */
async function assertUnchanged(file: string, original: string | null): Promise<void> {
  const now = await readConfigText(file, 'the file');
  if (now === original) return;
  throw new SvcError(
    'unavailable',
    `${file} changed while svc init ran; nothing was written.`,
    'Run svc init again: it plans against the file as it is now.',
  );
}

async function runStep(step: Step, state: InitState, { applies }: { applies: boolean }): Promise<StepResult> {
  const plan = await step.plan(state);
  const notes = plan.notes?.length ? plan.notes : undefined;
  if (plan.kind === 'already')
    return { step: step.name, status: 'already done', changes: [], ...(notes ? { notes } : {}) };
  if (plan.kind === 'skip')
    return { step: step.name, status: 'skipped', changes: [], why: plan.why, ...(notes ? { notes } : {}) };
  const result = (status: StepResult['status'], why?: string): StepResult => {
    const all = plan.notes?.length ? plan.notes : undefined;
    return { step: step.name, status, changes: plan.changes, ...(why ? { why } : {}), ...(all ? { notes: all } : {}) };
  };
  if (!applies) {
    plan.apply(); // on the drafts only, so the later steps plan against this one's result
    return result('planned');
  }
  // spelt out: the linter does not follow `Ask`
  const ask: ((question: string, fallback: string) => Promise<string>) | undefined = state.ask;
  if (ask && !plan.asked) {
    const answer = await ask(
      `${step.name}:\n${plan.changes.map((change) => `  ${toTerminalText(change)}\n`).join('')}Apply? [y/N]`,
      'n',
    );
    if (!/^y/i.test(answer)) return result('skipped', 'declined');
  }
  plan.apply();
  return result('done');
}
