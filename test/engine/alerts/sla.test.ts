import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  checkSla,
  formatSlaAlert,
  isResearcher,
  resolveSlaLimit,
  toRateLimitMs,
  type SlaTask,
} from '../../../lib/engine/alerts/sla.js';
import { validateOrg } from '../../../lib/org/org-chart.js';

const NOW = new Date('2026-11-21T10:00:00.000Z');
const org = validateOrg(
  {
    schemaVersion: 1,
    agents: [
      { id: 'dev', name: 'Dev' },
      { id: 'scout', name: 'Scout', capabilities: ['research'] },
      { id: 'owl', name: 'Owl' },
    ],
    roles: { researcher: { agents: ['owl'] } },
    aof: {
      projects: {
        web: {
          sla: { defaultMaxInProgressMs: 120_000, researchMaxInProgressMs: 600_000, alerting: { rateLimitMinutes: 5 } },
        },
        lab: { sla: { researchMaxInProgressMs: 600_000 } },
      },
    },
  },
  'chart',
);
const task = (extra: Partial<SlaTask> = {}): SlaTask => ({
  id: 'T-1',
  title: 'Slow',
  project: 'web',
  updatedAt: new Date(NOW.getTime() - 1000).toISOString(),
  routing: { agent: 'dev' },
  agent: 'dev',
  maxInProgressMs: undefined,
  ...extra,
});

const limit = suite('engine.resolveSlaLimit');

limit('resolution order: the task, then the project (research limit for a researcher agent), then 1 hour', () => {
  const cases: Array<[string, Partial<SlaTask>, number, string]> = [
    ['task limit wins over the project', { maxInProgressMs: 5000, routing: { agent: 'scout' } }, 5000, 'task'],
    ['project default', {}, 120_000, 'project'],
    ['researcher by capability', { routing: { agent: 'scout' } }, 600_000, 'project research'],
    ['researcher by role', { routing: { agent: 'owl' } }, 600_000, 'project research'],
    ['research limit only for routing.agent, not a lease holder', { routing: {}, agent: 'scout' }, 120_000, 'project'],
    ['project without a default: 1 hour for a non-researcher', { project: 'lab' }, 3_600_000, 'default'],
    [
      'project without a default: research limit for a researcher',
      { project: 'lab', routing: { agent: 'scout' } },
      600_000,
      'project research',
    ],
    ['unknown project: 1 hour', { project: 'other' }, 3_600_000, 'default'],
  ];
  for (const [name, extra, limitMs, source] of cases)
    assert.equal(resolveSlaLimit(task(extra), org), { limitMs, source }, name);
  assert.equal(resolveSlaLimit(task(), null), { limitMs: 3_600_000, source: 'default' }, 'no org chart');
});

limit('researcher agents and rate windows', () => {
  assert.ok(isResearcher('scout', org) && isResearcher('owl', org));
  assert.not.ok(isResearcher('dev', org) || isResearcher(undefined, org) || isResearcher('scout', null));
  assert.is(toRateLimitMs(org, 'web'), 300_000);
  assert.is(toRateLimitMs(org, 'lab'), 900_000);
  assert.is(toRateLimitMs(null, 'web'), 900_000);
});

const check = suite('engine.checkSla');

check('a task in progress longer than its limit (now minus updatedAt) is a violation', () => {
  const at = (ms: number) => new Date(NOW.getTime() - ms).toISOString();
  assert.is(
    checkSla(task({ maxInProgressMs: 1000, updatedAt: at(1000) }), org, NOW),
    null,
    'exactly the limit is not past it',
  );
  const v = checkSla(task({ maxInProgressMs: 1000, updatedAt: at(5400_000), agent: 'dev' }), org, NOW);
  assert.equal(v && { duration: v.durationMs, limit: v.limitMs, agent: v.agent }, {
    duration: 5400_000,
    limit: 1000,
    agent: 'dev',
  });
  assert.is(
    checkSla(task({ maxInProgressMs: 1000, updatedAt: at(2000), agent: undefined, routing: {} }), org, NOW)?.agent,
    'unassigned',
  );
});

check('the alert names the task, duration versus limit in hours, the agent and what to do', () => {
  const v = checkSla(
    task({ maxInProgressMs: 3_600_000, updatedAt: new Date(NOW.getTime() - 5_400_000).toISOString() }),
    org,
    NOW,
  )!;
  const text = formatSlaAlert(v);
  assert.ok(
    text.split('\n').every((line) => line.startsWith('[AOF] SLA VIOLATION:')),
    text,
  );
  assert.match(text, /T-1 "Slow"/);
  assert.match(text, /in progress for 1\.5 h \(limit 1 h, task\), agent: dev/);
  assert.match(text, /action: check on dev/);
});

check('durations print in the unit that fits: 45 s, 12 min, 3.5 h, never 0.00 h', () => {
  const line = (durationMs: number, limitMs: number) =>
    formatSlaAlert({
      ...checkSla(task({ maxInProgressMs: 1000, updatedAt: new Date(NOW.getTime() - 5000).toISOString() }), org, NOW)!,
      durationMs,
      limitMs,
    }).split('\n')[1]!;
  assert.match(line(45_000, 30_000), /in progress for 45 s \(limit 30 s, task\)/);
  assert.match(line(12 * 60_000, 10 * 60_000), /in progress for 12 min \(limit 10 min, task\)/);
  assert.match(line(3.5 * 3_600_000, 2 * 3_600_000), /in progress for 3\.5 h \(limit 2 h, task\)/);
  assert.match(line(800, 300), /in progress for 0\.8 s \(limit 0\.3 s, task\)/);
  assert.match(
    line(59_990, 3_599_000),
    /in progress for 1 min \(limit 1 h, task\)/,
    'a value that rounds up takes the next unit',
  );
  assert.not.match(line(800, 300), /0\.00 h/);
});

check("the alert shows a title's control and bidirectional characters escaped", () => {
  const v = checkSla(
    task({
      title: 'Slow \x1b[2J\u202Eevil',
      maxInProgressMs: 1000,
      updatedAt: new Date(NOW.getTime() - 5000).toISOString(),
    }),
    org,
    NOW,
  )!;
  const text = formatSlaAlert(v);
  assert.not.match(text, /[\x1b\u202e]/);
  assert.match(text, 'T-1 "Slow \\x1b[2J\\u202eevil"');
});

limit.run();
check.run();
