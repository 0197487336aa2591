import { readFile } from 'node:fs/promises';
import { hasCode } from '../../core/errors.js';
import type { Team, TriggerKind } from '../../org/schema.js';
import type { CreateInput } from '../../store/commit/store.js';
import type { Paths } from '../../store/disk/paths.js';
import type { MurmurState } from './state.js';

/** Title prefix of every review task; the rest is `<team> (<trigger>)`. */
export const REVIEW_TITLE_PREFIX = 'Murmur review: ';

/** One task line of a review's task summary. */
export interface SummaryTask {
  id: string;
  title: string;
  status: string;
  dispatchFailures: number;
}

/** What the `taskSummary` section is generated from. */
export interface TaskSummary {
  completed: readonly SummaryTask[];
  failing: readonly SummaryTask[];
  open: { ready: number; inProgress: number; blocked: number };
}

/** What a review task is built from. */
export interface ReviewInput {
  paths: Paths;
  team: Team & { orchestrator: string };
  trigger: TriggerKind;
  reason: string;
  state: MurmurState;
  summary: () => TaskSummary;
  /** Earlier reviews of the team that went stale and are still open, named in the body. */
  staleReviews?: readonly SummaryTask[];
}

/** Tasks listed per part of the summary; the counts cover the rest. */
const SUMMARY_LIMIT = 20;

/**
 * The review task: routed to the orchestrator, `metadata.murmur {team, trigger}`, and a body made of
 * the team's `murmur.context` sections: `taskSummary` is generated, any other name is `org/<name>.md`
 * (`vision`, `roadmap`) when that file exists.
 */
export async function buildReview(input: ReviewInput): Promise<CreateInput> {
  const { team, trigger, reason, state } = input;
  const sections: string[] = [];
  for (const name of team.murmur?.context ?? []) {
    const text =
      name === 'taskSummary' ? formatSummary(input.summary(), state) : await readDoc(input.paths.orgDoc(name));
    if (text !== null) sections.push(`## ${toHeading(name)}\n\n${text.trim()}\n`);
  }
  const intro = [
    `Review of team ${team.name || team.id} (${team.id}), triggered by \`${trigger}\`: ${reason}.`,
    '',
    "Look at the team's recent work, decide what comes next and create follow-up tasks with svc_dispatch;",
    'then complete this task with svc_task_complete (completing it resets the review counters).',
    '',
    ...staleNotice(input.staleReviews ?? []),
  ].join('\n');
  return {
    title: `${REVIEW_TITLE_PREFIX}${team.id} (${trigger})`,
    body: [intro, ...sections].join('\n'),
    status: 'ready',
    routing: { agent: team.orchestrator },
    metadata: { murmur: { team: team.id, trigger } },
    createdBy: 'murmur',
    actor: 'scheduler',
  };
}

/** True for the title of a review task of `teamId` (of any team when omitted). */
export function isReviewTitle(title: string, teamId?: string): boolean {
  return title.startsWith(teamId === undefined ? REVIEW_TITLE_PREFIX : `${REVIEW_TITLE_PREFIX}${teamId} (`);
}

// --- internal ---

function formatSummary(summary: TaskSummary, state: MurmurState): string {
  const line = (t: SummaryTask) =>
    `- ${t.id} ${JSON.stringify(t.title)} ` +
    `(${t.status}${t.dispatchFailures ? `, ${t.dispatchFailures} failed dispatches` : ''})`;
  const list = (items: readonly SummaryTask[]) =>
    items.length
      ? items.slice(0, SUMMARY_LIMIT).map(line).join('\n') +
        (items.length > SUMMARY_LIMIT ? `\n- ... and ${items.length - SUMMARY_LIMIT} more` : '')
      : '- none';
  const { ready, inProgress, blocked } = summary.open;
  return [
    `Since ${state.lastReviewAt ? `the last review (${state.lastReviewAt})` : 'the start (no review has run yet)'}: ` +
      `${state.completionsSinceLastReview} completed, ${state.failuresSinceLastReview} failed or deadlettered.`,
    `Open now: ${ready} ready, ${inProgress} in progress, ${blocked} blocked.`,
    '',
    'Completed:',
    list(summary.completed),
    '',
    'Failing or deadlettered:',
    list(summary.failing),
  ].join('\n');
}

function staleNotice(stale: readonly SummaryTask[]): string[] {
  if (!stale.length) return [];
  const lines = stale.map((t) => `- ${t.id} ${JSON.stringify(t.title)} (${t.status})`);
  return [
    `Earlier reviews of this team went stale (not completed within reviewTimeoutMs) and are still open; ` +
      `complete or cancel them, since each one still open delays the next review by reviewTimeoutMs:`,
    ...lines,
    '',
  ];
}

async function readDoc(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if (hasCode(err, 'ENOENT')) return null;
    throw err;
  }
}

function toHeading(name: string): string {
  const words = name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[-_]/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1).toLowerCase();
}
