import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { membershipOf, teamsOfTask } from '../../../lib/engine/murmur/team-tasks.js';
import { validateOrg } from '../../../lib/org/org-chart.js';

const teams = suite('engine.teamsOfTask');

teams('a task belongs to the team routing.team names and to every team of its agent', () => {
  const org = validateOrg(
    {
      schemaVersion: 1,
      agents: [
        { id: 'a', name: 'A', team: 'x' },
        { id: 'b', name: 'B' },
        { id: 'c', name: 'C' },
      ],
      teams: [
        { id: 'x', name: 'X', members: ['b'] },
        { id: 'y', name: 'Y', members: ['b'] },
      ],
    },
    'chart',
  );
  const m = membershipOf(org);
  assert.equal(teamsOfTask({}, 'a', m), ['x']);
  assert.equal(teamsOfTask({}, 'b', m).sort(), ['x', 'y']);
  assert.equal(teamsOfTask({ team: 'y' }, 'c', m), ['y']);
  assert.equal(teamsOfTask({}, undefined, m), []);
});

teams.run();
