import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { validateOrg } from '../../lib/org/org-chart.js';
import { svc } from '../helpers/cli.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

const validate = suite('org.validateOrg.murmur');
validate.after.each(cleanRoots);

validate('svc org validate lists every murmur problem as path: problem', async () => {
  const root = tempRoot();
  mkdirSync(join(root, 'org'), { recursive: true });
  writeFileSync(
    join(root, 'org', 'org-chart.yaml'),
    `schemaVersion: 1
agents:
  - { id: dev, name: Dev }
teams:
  - id: core
    name: Core
    members: [dev]
    orchestrator: ghost
    murmur:
      trigers: []
      context: [vision, ../secrets]
      reviewTimeoutMs: 0
  - id: ops
    name: Ops
    members: [dev]
    murmur:
      triggers:
        - { kind: completionBatch, thresold: 5 }
        - { kind: interval }
`,
  );
  const result = await svc(root, 'org', 'validate');
  assert.is(result.code, 1);
  for (const line of [
    '  teams[0].orchestrator: unknown agent "ghost" (known agents: dev)',
    '  teams[0].murmur.triggers: required (array)',
    '  teams[0].murmur.trigers: unknown setting (known: triggers, context, reviewTimeoutMs)',
    '  teams[0].murmur.context[1]: must be taskSummary or the name of a document org/<name>.md',
    '  teams[0].murmur.reviewTimeoutMs: must be greater than 0',
    '  teams[1].orchestrator: required when murmur is configured',
    '  teams[1].murmur.triggers[0].threshold: required (number)',
    '  teams[1].murmur.triggers[0].thresold: unknown setting (known: kind, threshold)',
    '  teams[1].murmur.triggers[1].intervalMs: required (number)',
  ])
    assert.ok(result.stderr.includes(line), `missing line ${line} in\n${result.stderr}`);
});

validate(
  'applies the murmur defaults: no context, a 30-minute review timeout; rateLimitMinutes may be fractional',
  () => {
    const org = validateOrg(
      {
        schemaVersion: 1,
        agents: [{ id: 'lead', name: 'Lead' }],
        teams: [{ id: 't', name: 'T', orchestrator: 'lead', murmur: { triggers: [{ kind: 'queueEmpty' }] } }],
        aof: { projects: { p: { sla: { alerting: { rateLimitMinutes: 0.5 } } } } },
      },
      'chart',
    );
    assert.equal(org.teams[0]!.murmur, { triggers: [{ kind: 'queueEmpty' }], context: [], reviewTimeoutMs: 1_800_000 });
    assert.is(org.aof.projects.p!.sla!.alerting.rateLimitMinutes, 0.5);
  },
);

validate.run();
