import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { findBudgetLimits, findOwnerLimits } from '../../lib/org/budget-limits.js';
import { BUDGET_ORG } from '../helpers/budget-org.js';

const NOW = new Date('2026-11-29T10:00:00.000Z');
const org = BUDGET_ORG;
const limits = suite('org.findBudgetLimits');

limits('lists the agent’s own budgets, then its teams’ (by `team` or by `members`) over every member', () => {
  const found = findBudgetLimits(org, 'coder').map((l) => `${l.scope}:${l.id}:${l.unit}/${l.period}:${l.limit}`);
  assert.equal(found, ['agent:coder:usd/day:20', 'agent:coder:tokens/day:1000', 'team:core:usd/month:50']);
  assert.equal(findBudgetLimits(org, 'helper')[0]?.agents, ['coder', 'helper']);
  assert.equal(findBudgetLimits(org, 'free'), []);
  assert.equal(findBudgetLimits(null, 'coder'), []);
});

const owner = suite('org.findOwnerLimits');

owner('an agent’s own budgets only, or a team’s over its members', () => {
  assert.equal(findOwnerLimits(org, { scope: 'agent', id: 'coder' }).length, 2);
  const team = findOwnerLimits(org, { scope: 'team', id: 'core' });
  assert.equal(
    team.map((l) => [l.unit, l.period, l.limit, l.agents]),
    [['usd', 'month', 50, ['coder', 'helper']]],
  );
  assert.equal(findOwnerLimits(org, { scope: 'team', id: 'gone' }), []);
});

limits.run();
owner.run();
