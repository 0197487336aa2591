import type { OrgChart, Team } from '../../org/schema.js';
import type { EventPayloads } from '../../core/events.js';
import type { Store } from '../../store/commit/store.js';
import type { IndexChange, TaskIndex } from '../../store/index/tasks.js';
import { applyDecision, evaluateMurmur, type MurmurDecision } from './evaluate.js';
import { toOutcomeLine, toOutcomePayload, toWaitLine } from './outcome.js';
import { recoverCreation } from './recover.js';
import { buildReview } from './review.js';
import { murmurDuty, type DutyGate } from '../duty-gate.js';
import { readMurmurState, toMurmurState, writeMurmurState, type MurmurState } from './state.js';
import { createMurmurCounts } from './counts.js';
import { findFailedBefore, findStaleReviews, summarizeTeam, toSummaryTask } from './summary.js';
import { membershipOf, type Membership } from './team-tasks.js';
import { toMurmurView } from './view.js';
import { describeError } from '../../core/errors.js';

/** What the murmur executor is wired to (the daemon's store, index and org chart). */
export interface MurmurRunnerOptions {
  store: Store;
  index: TaskIndex;
  loadOrg: () => Promise<OrgChart | null>;
  /** Daemon log lines; murmur's own start with `[AOF] Murmur:`. */
  log: (line: string) => void;
  /** Called with the id of each review task created, so the index and the scheduler see it at once. */
  onCreated?: (id: string) => void | Promise<void>;
  /** One owner per team's murmur among daemons sharing the tree; without it this daemon runs every team. */
  duty?: DutyGate;
}

/** Murmur in the daemon: counts the teams' completions and failures, and runs the triggers. */
export interface MurmurRunner {
  /** A task changed status in the index: counts completions and failed dispatches per team. */
  observe(change: IndexChange): void;
  /** Evaluates every team with murmur (coalesced: calls during a run yield one more run). */
  run(): Promise<void>;
  close(): Promise<void>;
}

/** Log prefix of every murmur line (the specification's). */
export const MURMUR_PREFIX = '[AOF] Murmur:';

/**
 * Starts murmur for a daemon. A task belongs to a team when `routing.team` names it or its agent (the
 * lease holder, else `routing.agent`) is a member (`teams[].members`, or `agents[].team`). Review
 * tasks themselves are never counted. The state files are written by this executor only.
 */
export function startMurmur(options: MurmurRunnerOptions): MurmurRunner {
  const { store, index } = options;
  const paths = store.paths;
  const states = new Map<string, MurmurState>();
  /** The text last written per team: a file is rewritten only when its state changed. */
  const written = new Map<string, string>();
  const startedAt = store.clock().getTime();
  const counts = createMurmurCounts(index, startedAt);
  /** The kind of wait (`held`, `deferred`) last logged per team: a wait is logged once. */
  const heldLogged = new Map<string, string>();
  /** When each team's last review went stale (epoch ms), while this daemon runs. */
  const staleAt = new Map<string, number>();
  let membership: Membership | null = null;
  let indexLoaded = false;
  let closed = false;
  void index.loaded.then(
    () => (indexLoaded = true),
    () => undefined,
  );
  const log = (line: string) => options.log(`${MURMUR_PREFIX} ${line}`);

  async function evaluateTeam(team: Team & { orchestrator: string }, org: OrgChart): Promise<void> {
    const duty = murmurDuty(team.id);
    if (options.duty && !options.duty.owns(duty)) {
      // Another daemon's duty: what this one counted is that owner's to count. While this daemon's
      // first claim is under way nobody holds it yet, and the completions seen meanwhile are kept.
      if (options.duty.heldByOther?.(duty) ?? true) {
        counts.take(team.id);
        states.delete(team.id);
        written.delete(team.id);
      }
      return;
    }
    const handed = options.duty?.handover(duty);
    const own = states.get(team.id);
    const before =
      (handed === undefined ? undefined : toMurmurState(handed, () => undefined)) ??
      own ??
      (await readMurmurState(paths, team.id, log));
    // First look at the team here (a start, or a duty taken over): failures already counted stay counted once.
    if (!own)
      counts.seedFailed(team.id, findFailedBefore({ index, membership: membership!, team, state: before }, startedAt));
    let state = withCounts(before, counts.take(team.id));
    if (state.reviewStartedAt && !state.currentReviewTaskId) state = recoverCreation({ index, team, state, log });
    states.set(team.id, state); // counted even if what follows fails
    const now = store.clock();
    const lastStaleAt = staleAt.get(team.id);
    const view = toMurmurView({ index, membership: membership!, team, org, state, indexLoaded, lastStaleAt });
    const decision = evaluateMurmur(state, view, now);
    state = await execute(team, state, { decision, now });
    states.set(team.id, state);
    await save(team.id, state);
  }

  async function save(teamId: string, state: MurmurState): Promise<void> {
    const text = JSON.stringify(state);
    if (written.get(teamId) === text) return;
    await writeMurmurState(paths, teamId, state);
    await options.duty?.save(murmurDuty(teamId), state);
    written.set(teamId, text);
  }

  async function execute(
    team: Team & { orchestrator: string },
    state: MurmurState,
    decided: { decision: MurmurDecision; now: Date },
  ): Promise<MurmurState> {
    const { decision, now } = decided;
    if (decision.kind !== 'held' && decision.kind !== 'deferred') heldLogged.delete(team.id);
    if (decision.kind === 'idle' || decision.kind === 'reviewing') return state;
    if (decision.kind === 'held' || decision.kind === 'deferred') {
      if (heldLogged.get(team.id) !== decision.kind) log(toWaitLine(team.id, decision));
      heldLogged.set(team.id, decision.kind);
      return state;
    }
    if (decision.kind === 'review') return createReview(team, state, { decision, now });
    const next = applyDecision(state, decision, { now });
    if (decision.kind === 'completed') counts.reset(team.id);
    if (decision.kind === 'stale') staleAt.set(team.id, now.getTime());
    log(toOutcomeLine(team, state, decision));
    await event(decision.taskId, toOutcomePayload(team, state, decision), now);
    return next;
  }

  async function createReview(
    team: Team & { orchestrator: string },
    state: MurmurState,
    decided: { decision: Extract<MurmurDecision, { kind: 'review' }>; now: Date },
  ): Promise<MurmurState> {
    const { decision, now } = decided;
    // Written first: a crash before the task id is recorded is recovered from `reviewStartedAt` (see recoverCreation).
    const pending = applyDecision(state, decision, { now });
    await save(team.id, pending);
    const summary = () =>
      summarizeTeam({
        index,
        membership: membership!,
        team,
        state: states.get(team.id),
        counted: counts.counted(team.id),
      });
    const staleReviews = findStaleReviews(index, team.id, null).map(toSummaryTask);
    const input = await buildReview({
      paths,
      team,
      trigger: decision.trigger,
      reason: decision.reason,
      state,
      summary,
      staleReviews,
    });
    const created = await store.create(input);
    const id = created.task.id;
    const next = applyDecision(state, decision, { now, taskId: id });
    states.set(team.id, next);
    await save(team.id, next);
    log(
      `created review ${id} for team ${team.id}, routed to ` +
        `${team.orchestrator} (trigger ${decision.trigger}: ${decision.reason})`,
    );
    await event(
      id,
      {
        team: team.id,
        action: 'created',
        trigger: decision.trigger,
        reason: decision.reason,
        agent: team.orchestrator,
      },
      now,
    );
    await options.onCreated?.(id);
    return next;
  }

  async function event(taskId: string, payload: EventPayloads['murmur.review'], now: Date): Promise<void> {
    await store.events.record(now, [{ type: 'murmur.review', taskId, actor: 'scheduler', payload }]);
  }

  let current: Promise<void> | null = null;
  let again = false;
  async function evaluateAll(): Promise<void> {
    const org = await options.loadOrg();
    if (!org) return;
    membership = membershipOf(org);
    for (const team of org.teams) {
      if (!team.murmur || !team.orchestrator) continue;
      try {
        await evaluateTeam(team as Team & { orchestrator: string }, org);
      } catch (err) {
        log(`evaluation of team ${team.id} failed: ${describeError(err)}`);
      }
    }
  }

  return {
    observe: (change) => counts.observe(change, membership),
    run() {
      if (closed) return Promise.resolve();
      if (current) {
        again = true;
        return current;
      }
      current = (async () => {
        do {
          again = false;
          await evaluateAll().catch((err: unknown) => log(`evaluation failed: ${describeError(err)}`));
        } while (again && !closed);
      })().finally(() => (current = null));
      return current;
    },
    async close() {
      closed = true;
      await current;
    },
  };
}

// --- internal ---

function withCounts(state: MurmurState, counts: { completions: number; failures: number }): MurmurState {
  return {
    ...state,
    completionsSinceLastReview: state.completionsSinceLastReview + counts.completions,
    failuresSinceLastReview: state.failuresSinceLastReview + counts.failures,
  };
}
