import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Usage } from '../../../lib/core/usage.js';
import { createSpendLedger } from '../../../lib/store/events/spend.js';
import { findSpentBudget, toBudgetHold } from '../../../lib/engine/budgets/limits.js';
import { validateOrg } from '../../../lib/org/org-chart.js';
import { BUDGET_ORG } from '../../helpers/budget-org.js';

const NOW = new Date('2026-11-29T10:00:00.000Z');
const org = BUDGET_ORG;
const usd = (costUsd: number, tokens = 0): Usage => ({
  inputTokens: tokens,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  costUsd,
});

const spent = suite('engine.budgets.findSpentBudget');

spent('is null below every limit and names the first budget reached in full', () => {
  const ledger = createSpendLedger();
  ledger.record('coder', usd(19.99, 10), NOW);
  assert.is(findSpentBudget(ledger, { org, agent: 'coder', now: NOW }), null);
  ledger.record('coder', usd(0.41, 10), NOW);
  assert.equal(findSpentBudget(ledger, { org, agent: 'coder', now: NOW }), {
    scope: 'agent',
    id: 'coder',
    limit: 20,
    spent: 20.4,
    unit: 'usd',
    period: 'day',
  });
});

spent('a team’s monthly budget counts every member’s days of the month', () => {
  const ledger = createSpendLedger();
  ledger.record('coder', usd(15), new Date('2026-11-02T10:00:00Z'));
  ledger.record('helper', usd(35), new Date('2026-11-20T10:00:00Z'));
  ledger.record('helper', usd(100), new Date('2026-10-20T10:00:00Z'));
  const figures = findSpentBudget(ledger, { org, agent: 'helper', now: NOW });
  assert.equal(figures && [figures.scope, figures.id, figures.spent, figures.period], ['team', 'core', 50, 'month']);
});

const hold = suite('engine.budgets.toBudgetHold');

hold('describes the spent budget for the planner, and is absent when no budget is set', () => {
  const ledger = createSpendLedger();
  ledger.record('coder', usd(20.4), NOW);
  const of = toBudgetHold(ledger, { org, now: NOW });
  assert.match(of?.('coder') ?? '', /^agent coder spent \$20\.40 of \$20 today \(usdPerDay\)/);
  assert.is(of?.('free'), null);
  const none = validateOrg({ schemaVersion: 1, agents: [{ id: 'a', name: 'A', command: ['true'] }] }, 'x');
  assert.is(toBudgetHold(ledger, { org: none, now: NOW }), undefined);
});

hold('tokens are counted against tokensPerDay, the next day starts at 0', () => {
  const ledger = createSpendLedger();
  ledger.record('coder', usd(0, 1200), NOW);
  assert.match(toBudgetHold(ledger, { org, now: NOW })?.('coder') ?? '', /1,200 of 1,000 tokens today/);
  const tomorrow = new Date('2026-11-30T00:00:01.000Z');
  assert.is(toBudgetHold(ledger, { org, now: tomorrow })?.('coder'), null);
});

spent.run();
hold.run();
