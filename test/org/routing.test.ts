import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { validateOrg } from '../../lib/org/org-chart.js';
import { assertKnownRouting, hasRoute, routeTask, type Route, type RouteRequest } from '../../lib/org/routing.js';

const org = validateOrg(
  {
    schemaVersion: 1,
    agents: [
      { id: 'lead', name: 'Lead', capabilities: ['review', 'ts'], team: 'core' },
      { id: 'dev', name: 'Dev', capabilities: ['ts', 'tests'], team: 'core', maxConcurrent: 2 },
      { id: 'ops', name: 'Ops', capabilities: ['shell', 'ts'] },
      { id: 'old', name: 'Retired', active: false, capabilities: ['ts', 'legacy'] },
      { id: 'scout', name: 'Scout', capabilities: ['research'], team: 'labs' },
    ],
    teams: [
      { id: 'core', name: 'Core', members: ['lead', 'dev'] },
      { id: 'labs', name: 'Labs' },
      { id: 'ghost', name: 'Ghost town', members: ['old'] },
    ],
    roles: {
      implementer: { agents: ['dev', 'lead'] },
      reviewer: { agents: ['lead'] },
      archivist: { agents: ['old'] },
    },
  },
  'chart',
);

const route = suite('org.routeTask');

const cases: Array<[string, RouteRequest, Record<string, number>, Route]> = [
  ['routing.agent is used as named', { routing: { agent: 'ops', role: 'reviewer' } }, {}, { agent: 'ops' }],
  ['routing.agent wins over the gate role', { routing: { agent: 'dev' }, gateRole: 'reviewer' }, {}, { agent: 'dev' }],
  [
    'the gate role wins over routing.role',
    { routing: { role: 'implementer' }, gateRole: 'reviewer' },
    {},
    { agent: 'lead' },
  ],
  ['a role picks in org chart order when nobody is busy', { routing: { role: 'implementer' } }, {}, { agent: 'lead' }],
  ['a role picks the least busy agent first', { routing: { role: 'implementer' } }, { lead: 1 }, { agent: 'dev' }],
  [
    'an agent with a free slot comes before a full one',
    { routing: { role: 'implementer' } },
    { lead: 1, dev: 1 },
    { agent: 'dev' },
  ],
  [
    'among full agents the least busy comes first',
    { routing: { role: 'implementer' } },
    { lead: 1, dev: 2 },
    { agent: 'lead' },
  ],
  ['a team routes to its members and to agents naming it', { routing: { team: 'labs' } }, {}, { agent: 'scout' }],
  ['a team picks the least busy member', { routing: { team: 'core' } }, { lead: 3, dev: 1 }, { agent: 'dev' }],
  ['tags need every capability', { routing: { tags: ['ts', 'shell'] } }, {}, { agent: 'ops' }],
  [
    'tags skip inactive agents',
    { routing: { tags: ['legacy'] } },
    {},
    { none: 'tags [legacy] has no active agent (inactive: old)' },
  ],
  ['tags pick the least busy then chart order', { routing: { tags: ['ts'] } }, { lead: 1 }, { agent: 'dev' }],
  [
    'role takes precedence over team and tags',
    { routing: { role: 'reviewer', team: 'labs', tags: ['shell'] } },
    {},
    { agent: 'lead' },
  ],
  ['an inactive named agent is no route', { routing: { agent: 'old' } }, {}, { none: 'agent "old" is inactive' }],
  [
    'an unknown named agent is no route naming the known',
    { routing: { agent: 'bob' } },
    {},
    { none: 'agent "bob" is not in the org chart (known agents: lead, dev, ops, old, scout)' },
  ],
  [
    'an unknown role is no route',
    { routing: { role: 'tester' } },
    {},
    { none: 'role "tester" is not in the org chart (known roles: implementer, reviewer, archivist)' },
  ],
  [
    'an unknown gate role is no route',
    { routing: {}, gateRole: 'qa' },
    {},
    { none: 'gate role "qa" is not in the org chart (known roles: implementer, reviewer, archivist)' },
  ],
  [
    'a role of inactive agents is no route',
    { routing: { role: 'archivist' } },
    {},
    { none: 'role "archivist" has no active agent (inactive: old)' },
  ],
  [
    'an unknown team is no route',
    { routing: { team: 'web' } },
    {},
    { none: 'team "web" is not in the org chart (known teams: core, labs, ghost)' },
  ],
  [
    'a team of inactive agents is no route',
    { routing: { team: 'ghost' } },
    {},
    { none: 'team "ghost" has no active agent (inactive: old)' },
  ],
  [
    'tags nobody has are no route',
    { routing: { tags: ['rust'] } },
    {},
    { none: 'no agent has every capability of tags [rust]' },
  ],
  ['empty routing is no route', { routing: { tags: [] } }, {}, { none: 'the task names no agent, role, team or tags' }],
];

for (const [name, request, load, expected] of cases) {
  route(name, () => {
    assert.equal(routeTask(request, org, new Map(Object.entries(load))), expected);
  });
}

route('without an org chart takes routing.agent as given and routes nothing else', () => {
  assert.equal(routeTask({ routing: { agent: 'anyone' } }, null, new Map()), { agent: 'anyone' });
  const none = routeTask({ routing: { role: 'reviewer' } }, null, new Map());
  assert.ok('none' in none && none.none.startsWith('no org chart'));
});

route('does not resolve roles through the object prototype', () => {
  assert.equal(routeTask({ routing: { role: 'constructor' } }, org, new Map()), {
    none: 'role "constructor" is not in the org chart (known roles: implementer, reviewer, archivist)',
  });
});

const has = suite('org.hasRoute');

has('is true for an agent, role, team or at least one tag', () => {
  const table: Array<[object, boolean]> = [
    [{ agent: 'a' }, true],
    [{ role: 'r' }, true],
    [{ team: 't' }, true],
    [{ tags: ['x'] }, true],
    [{}, false],
    [{ tags: [] }, false],
    [{ workflow: 'implement-review' }, false],
  ];
  for (const [routing, expected] of table) assert.is(hasRoute(routing), expected, JSON.stringify(routing));
});

const known = suite('org.assertKnownRouting');

known('accepts known names, and anything without an org chart', () => {
  assertKnownRouting({ agent: 'dev', role: 'reviewer', team: 'core', tags: ['anything'] }, org);
  assertKnownRouting({ agent: 'bob', role: 'x', team: 'y' }, null);
});

known('lists every unknown name with the known ones', () => {
  try {
    assertKnownRouting({ agent: 'bob', role: 'tester', team: 'web' }, org);
    assert.unreachable('should refuse');
  } catch (err) {
    const { code, message } = err as { code: string; message: string };
    assert.is(code, 'validation_error');
    assert.match(message, /routing\.agent: unknown agent "bob" \(known agents: lead, dev, ops, old, scout\)/);
    assert.match(message, /routing\.role: unknown role "tester" \(known roles: implementer, reviewer, archivist\)/);
    assert.match(message, /routing\.team: unknown team "web" \(known teams: core, labs, ghost\)/);
  }
});

route.run();
has.run();
known.run();
