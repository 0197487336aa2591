import { basename } from 'node:path';
import { createInterface } from 'node:readline/promises';
import type { CAC } from 'cac';
import { SvcError } from '../../core/errors.js';
import { toTerminalText } from '../../core/text.js';
import type { Context } from '../frame/context.js';
import type { InitReport } from './run.js';
import type { Ask } from './step.js';

interface InitFlags {
  yes?: boolean;
  dryRun?: boolean;
  standalone?: boolean;
  config?: string;
  json?: boolean;
  force?: boolean;
}

/** Registers `svc init`: wires svc into an OpenClaw gateway config, step by step (see docs/openclaw.md). */
export function registerInit(cli: CAC, ctx: Context): void {
  cli
    .command('init', 'Register svc in the OpenClaw gateway config: plugin, allow-lists, agents both ways, skill, token')
    .option('--yes', 'Apply every step without asking (the memory module stays disabled)')
    .option('--dry-run', 'Print what would change and write nothing')
    .option('--standalone', 'Register `svc mcp` as the gateway MCP server instead of the plugin')
    .option('--config <path>', 'The gateway config (default: OPENCLAW_CONFIG_PATH, else ~/.openclaw/openclaw.json)')
    .option('--force', 'Replace sections of the gateway config that have the wrong type (refused otherwise)')
    .option('--json', 'Print the steps as JSON')
    .action(async (flags: InitFlags) => {
      const { runInit } = await import('./run.js');
      const terminal =
        !flags.yes && !flags.dryRun && !flags.json && Boolean(process.stdin.isTTY && process.stdout.isTTY);
      const prompt = terminal ? createInterface({ input: process.stdin, output: process.stdout }) : undefined;
      prompt?.on('SIGINT', () => prompt.close()); // Ctrl+C at a prompt stops the wizard like Ctrl+D
      const ask: Ask | undefined =
        prompt &&
        (async (question, fallback) => {
          try {
            return (await prompt.question(`${question} `)).trim() || fallback;
          } catch (err) {
            throw new SvcError('unavailable', 'svc init stopped at a prompt: nothing was written.', {
              hint: 'Run svc init again, or `svc init --dry-run` to see the plan.',
              cause: err,
            });
          }
        });
      try {
        const report = await runInit({
          root: ctx.root,
          env: ctx.io.env,
          now: new Date(),
          yes: Boolean(flags.yes),
          dryRun: Boolean(flags.dryRun),
          standalone: Boolean(flags.standalone),
          force: Boolean(flags.force),
          ...(flags.config ? { configOption: String(flags.config) } : {}),
          ...(ask ? { ask } : {}),
        });
        if (flags.json) return ctx.json(report);
        printReport(ctx, report, { yes: Boolean(flags.yes), dryRun: Boolean(flags.dryRun), terminal });
      } finally {
        prompt?.close();
      }
    });
}

// --- internal ---

/**
 * Prints the report; everything read from files (config values, agent ids, paths) has its control characters escaped.
 */
function printReport(
  ctx: Context,
  report: InitReport,
  mode: { yes: boolean; dryRun: boolean; terminal: boolean },
): void {
  const print = ctx.print;
  ctx = { ...ctx, print: (text) => print(toTerminalText(text, { multiline: true })) };
  ctx.print(`Gateway config: ${report.config}`);
  ctx.print(`Org chart:      ${report.orgChart}`);
  if (mode.dryRun) ctx.print('Dry run: nothing is written.');
  else if (!mode.yes && !mode.terminal)
    ctx.print('No terminal to ask on: this is the plan, nothing is changed. Run `svc init --yes` to apply it.');
  ctx.print('');
  for (const step of report.steps) {
    const why = step.why ? ` (${step.why})` : '';
    ctx.print(`${step.status.padEnd(13)} ${step.step}${why}`);
    for (const change of step.changes) ctx.print(`${' '.repeat(16)}${change}`);
    for (const note of step.notes ?? []) ctx.print(`${' '.repeat(16)}note: ${note}`);
  }
  const { config: configBackup, orgChart: orgBackup } = report.backups;
  if (configBackup && report.commentsDropped) {
    ctx.print(
      `\nThe rewrite of ${basename(report.config)} does not keep its ` +
        `comments; the original, comments included, is in ${configBackup}`,
    );
  } else if (configBackup) {
    ctx.print(`\nBackup of the previous gateway config: ${configBackup}`);
  }
  if (orgBackup) ctx.print(`Backup of the previous org chart (the rewrite does not keep its comments): ${orgBackup}`);
  if (report.applied) {
    ctx.print(
      '\nNext: restart the gateway (or let it reload its config), run `svc daemon ' +
        'start`, and check that `svc daemon status` prints a `Plugin:` line.',
    );
  } else if (!mode.dryRun && report.steps.every((step) => step.status !== 'planned')) {
    ctx.print('\nNothing to change.');
  }
}
