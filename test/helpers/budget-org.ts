import { validateOrg } from '../../lib/org/org-chart.js';

// The org chart of the budget tests (test/org/budget-limits.test.ts, test/engine/budgets/limits.test.ts): an agent with
// its own daily budgets, one in a team with a monthly budget, one with none, their model priced.
export const BUDGET_ORG = validateOrg(
  {
    schemaVersion: 1,
    agents: [
      {
        id: 'coder',
        name: 'Coder',
        runtime: 'claude-code',
        model: 'sonnet',
        budget: { usdPerDay: 20, tokensPerDay: 1000 },
      },
      { id: 'helper', name: 'Helper', runtime: 'claude-code', model: 'sonnet', team: 'core' },
      { id: 'free', name: 'Free', command: ['true'] },
    ],
    teams: [{ id: 'core', name: 'Core', members: ['coder'], budget: { usdPerMonth: 50 } }],
    aof: { pricing: { sonnet: { inputUsdPerMTok: 3, outputUsdPerMTok: 15 } } },
  },
  'test org',
);
