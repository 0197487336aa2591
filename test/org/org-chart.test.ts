import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { loadOrg, loadOrgFile, toDaemonSettings, validateOrg } from '../../lib/org/org-chart.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

function writeChart(root: string, yaml: string): string {
  mkdirSync(join(root, 'org'), { recursive: true });
  const file = join(root, 'org', 'org-chart.yaml');
  writeFileSync(file, yaml);
  return file;
}

function problemsOf(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (err) {
    return err as { code: string; message: string };
  }
  throw new Error('expected a validation error');
}

const MINIMAL = `schemaVersion: 1
agents:
  - id: dev
    name: Developer
teams:
  - id: core
    name: Core
    members: [dev]
roles:
  implementer:
    agents: [dev]
`;

const load = suite('org.loadOrg');
load.after.each(cleanRoots);

load('returns null when org/org-chart.yaml does not exist', async () => {
  assert.is(await loadOrg(tempRoot()), null);
});

load('loads a valid chart and applies every default', async () => {
  const root = tempRoot();
  writeChart(root, MINIMAL);
  const org = (await loadOrg(root))!;
  assert.equal(org.agents[0], { id: 'dev', name: 'Developer', active: true, capabilities: [], maxConcurrent: 1 });
  assert.equal(org.teams[0]!.members, ['dev']);
  assert.equal(org.aof.projects, {});
  assert.is(org.aof.daemon.pollIntervalMs, 30000);
  assert.is(org.aof.daemon.watchdog.restartPolicy.maxRestarts, 3);
});

load('keeps unknown keys outside aof.daemon', async () => {
  const root = tempRoot();
  writeChart(root, `${MINIMAL}extra:\n  note: kept\n`);
  const org = (await loadOrg(root)) as unknown as { extra: unknown };
  assert.equal(org.extra, { note: 'kept' });
});

load('refuses a YAML alias', async () => {
  const root = tempRoot();
  writeChart(root, `schemaVersion: 1\nagents:\n  - &a { id: dev, name: Dev }\n  - *a\n`);
  try {
    await loadOrg(root);
    assert.unreachable('should refuse');
  } catch (err) {
    assert.is((err as { code: string }).code, 'validation_error');
    assert.match((err as Error).message, /org-chart\.yaml: malformed YAML/);
    assert.match((err as Error).message, /alias/i);
  }
});

load('reads a chart from any path with loadOrgFile', async () => {
  const root = tempRoot();
  const file = join(root, 'elsewhere.yaml');
  writeFileSync(file, MINIMAL);
  assert.is((await loadOrgFile(file))!.agents.length, 1);
  assert.is(await loadOrgFile(join(root, 'missing.yaml')), null);
});

const validate = suite('org.validateOrg');

validate('reports every problem of a chart, one path: problem a line', () => {
  const err = problemsOf(() =>
    validateOrg(
      {
        schemaVersion: 2,
        agents: [{ id: 'dev', name: 'Dev', team: 'ghosts' }, { id: 'dev', name: 'Dev again' }, { name: 'No id' }],
        teams: [{ id: 'core', name: 'Core', members: ['dev', 'nobody'], murmur: { triggers: [] } }],
        roles: { reviewer: { agents: ['stranger'] } },
      },
      'org-chart.yaml',
    ),
  );
  assert.is(err.code, 'validation_error');
  assert.match(err.message, /^org-chart\.yaml: invalid org chart \(8 problems\):/);
  for (const line of [
    '  schemaVersion: must be 1 (found 2)',
    '  agents[2].id: required (string)',
    '  teams[0].murmur.triggers: needs at least one trigger',
    '  agents[1].id: duplicate agent id "dev" (first at agents[0])',
    '  agents[0].team: unknown team "ghosts" (known teams: core)',
    '  teams[0].members[1]: unknown agent "nobody" (known agents: dev)',
    '  teams[0].orchestrator: required when murmur is configured',
    '  roles.reviewer.agents[0]: unknown agent "stranger" (known agents: dev)',
  ])
    assert.ok(err.message.includes(line), `missing line ${line} in\n${err.message}`);
});

validate('requires a positive threshold or intervalMs and a known trigger kind', () => {
  const err = problemsOf(() =>
    validateOrg(
      {
        schemaVersion: 1,
        agents: [{ id: 'lead', name: 'Lead' }],
        teams: [
          {
            id: 't',
            name: 'T',
            orchestrator: 'lead',
            murmur: {
              triggers: [
                { kind: 'completionBatch' },
                { kind: 'interval', intervalMs: 0 },
                { kind: 'failureBatch', threshold: -2 },
                { kind: 'sometimes' },
              ],
            },
          },
        ],
      },
      'chart',
    ),
  );
  assert.match(err.message, /teams\[0\]\.murmur\.triggers\[0\]\.threshold: required \(number\)/);
  assert.match(err.message, /teams\[0\]\.murmur\.triggers\[1\]\.intervalMs: must be greater than 0/);
  assert.match(err.message, /teams\[0\]\.murmur\.triggers\[2\]\.threshold: must be greater than 0/);
  assert.match(
    err.message,
    /teams\[0\]\.murmur\.triggers\[3\]\.kind: must be one of queueEmpty, completionBatch, interval, failureBatch \(found "sometimes"\)/,
  );
});

validate('refuses sla.onViolation block with a clear message', () => {
  const err = problemsOf(() =>
    validateOrg({ schemaVersion: 1, aof: { projects: { web: { sla: { onViolation: 'block' } } } } }, 'chart'),
  );
  assert.is(err.code, 'validation_error');
  assert.match(err.message, /aof\.projects\.web\.sla\.onViolation: only "alert" is supported, found "block"/);
});

validate('names an unknown key under aof.daemon, nested ones too', () => {
  const err = problemsOf(() =>
    validateOrg(
      {
        schemaVersion: 1,
        aof: { daemon: { pollIntervalMs: 1000, pollInterval: 5, watchdog: { restartPolicy: { retries: 2 } } } },
      },
      'chart',
    ),
  );
  assert.match(err.message, /\(2 problems\)/);
  assert.match(err.message, /  aof\.daemon\.pollInterval: unknown setting \(known: pollIntervalMs, /);
  assert.match(
    err.message,
    /  aof\.daemon\.watchdog\.restartPolicy\.retries: unknown setting \(known: maxRestarts, windowMs\)/,
  );
});

validate('applies sla defaults and keeps the given limits', () => {
  const org = validateOrg(
    { schemaVersion: 1, aof: { projects: { web: { sla: { defaultMaxInProgressMs: 60000 } } } } },
    'chart',
  );
  assert.equal(org.aof.projects.web!.sla, {
    defaultMaxInProgressMs: 60000,
    onViolation: 'alert',
    alerting: { rateLimitMinutes: 15 },
  });
});

const settings = suite('org.toDaemonSettings');

settings('gives every default without an org chart', () => {
  assert.equal(toDaemonSettings(null), {
    pollIntervalMs: 30000,
    rescanIntervalMs: 5000,
    bootWindowMs: 10000,
    maxConcurrentDispatches: 3,
    defaultLeaseTtlMs: 1800000,
    heartbeatTtlMs: 300000,
    dutyTtlMs: 45000,
    spawnTimeoutMs: 30000,
    agentStopGraceMs: 10000,
    runExitGraceMs: 30000,
    runLogMaxBytes: 10485760,
    runIdleTimeoutMs: 600000,
    retryBackoffMs: [5000, 30000],
    dryRun: false,
    maxCheckFailures: 3,
    watchdog: {
      enabled: false,
      pollIntervalMs: 60000,
      restartPolicy: { maxRestarts: 3, windowMs: 3600000 },
      alerting: {},
    },
  });
});

settings('merges the chart settings over the defaults', () => {
  const org = validateOrg(
    {
      schemaVersion: 1,
      aof: {
        daemon: { maxConcurrentDispatches: 5, gatewayUrl: 'http://127.0.0.1:18789', watchdog: { enabled: true } },
      },
    },
    'chart',
  );
  const daemon = toDaemonSettings(org);
  assert.is(daemon.maxConcurrentDispatches, 5);
  assert.is(daemon.gatewayUrl, 'http://127.0.0.1:18789');
  assert.is(daemon.pollIntervalMs, 30000);
  assert.equal(daemon.watchdog.restartPolicy, { maxRestarts: 3, windowMs: 3600000 });
  assert.ok(daemon.watchdog.enabled);
});

settings('are made once per chart: a tick or a call asks again for the same object; another chart has its own', () => {
  const chart = (maxConcurrentDispatches: number) =>
    validateOrg(
      { schemaVersion: 1, agents: [{ id: 'a', name: 'A' }], aof: { daemon: { maxConcurrentDispatches } } },
      'chart',
    );
  const one = chart(5);
  assert.is(toDaemonSettings(one), toDaemonSettings(one));
  assert.is(toDaemonSettings(null), toDaemonSettings(null));
  const other = chart(7);
  assert.is.not(toDaemonSettings(other), toDaemonSettings(one));
  assert.is(toDaemonSettings(other).maxConcurrentDispatches, 7);
  assert.is(toDaemonSettings(one).maxConcurrentDispatches, 5);
});

load.run();
validate.run();
settings.run();
