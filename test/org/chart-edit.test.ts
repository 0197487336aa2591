import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseYaml } from '../../lib/fs/frontmatter.js';
import { appendAgentText, EMPTY_CHART } from '../../lib/org/chart-edit.js';

const AGENT = { id: 'coder', name: 'coder', runtime: 'claude-code', model: 'claude-sonnet-5' };

const append = suite('org.appendAgentText');

append('adds an item after the last agent, its comments and the rest of the file unchanged', () => {
  const text = [
    '# Who works here',
    'schemaVersion: 1',
    'agents:',
    '    # the first one',
    '    - id: dev # inline',
    '      name: Dev',
    '      # its notes',
    '',
    '# the teams',
    'teams: []',
    '',
  ].join('\n');
  const next = appendAgentText(text, AGENT, 'org-chart.yaml');
  assert.is(
    next,
    [
      ...text.split('\n').slice(0, 7),
      '    - id: coder',
      '      name: coder',
      '      runtime: claude-code',
      '      model: claude-sonnet-5',
      ...text.split('\n').slice(7),
    ].join('\n'),
  );
});

append('an agents list at the margin, an empty flow list, no list at all, an empty file', () => {
  const margin = appendAgentText('agents:\n- id: dev\n  name: Dev\nroles: {}\n', AGENT, 'o');
  assert.is(margin, `agents:\n- id: dev\n  name: Dev\n- id: coder\n  name: coder\n${lines(0)}roles: {}\n`);
  const empty = appendAgentText('schemaVersion: 1\nagents: [] # none yet\n', AGENT, 'o');
  assert.is(empty, `schemaVersion: 1\nagents: # none yet\n  - id: coder\n    name: coder\n${lines(2)}`);
  const none = appendAgentText('schemaVersion: 1 # kept\n', AGENT, 'o');
  assert.is(none, `schemaVersion: 1 # kept\nagents:\n  - id: coder\n    name: coder\n${lines(2)}`);
  assert.equal(parseYaml(appendAgentText('', AGENT, 'o'), 'o'), { agents: [AGENT] });
  assert.equal(parseYaml(appendAgentText(EMPTY_CHART, AGENT, 'o'), 'o'), { schemaVersion: 1, agents: [AGENT] });
});

append('a flow list with items is refused with the lines to add by hand', () => {
  try {
    appendAgentText('agents: [{ id: dev, name: Dev }]\n', AGENT, 'org-chart.yaml');
    assert.unreachable('should refuse');
  } catch (err) {
    const error = err as { code: string; message: string; hint: string };
    assert.is(error.code, 'validation_error');
    assert.match(error.message, /org-chart\.yaml: its agents list is written in a form svc does not edit/);
    assert.match(error.hint, /Add the agent to the agents list yourself:\n {2}- id: coder\n {4}name: coder\n/);
  }
});

append.run();

/** The runtime and model lines of AGENT at an item's indent. */
function lines(indent: number): string {
  const pad = ' '.repeat(indent + 2);
  return `${pad}runtime: claude-code\n${pad}model: claude-sonnet-5\n`;
}
