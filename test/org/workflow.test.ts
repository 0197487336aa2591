import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { templatePath } from '../../lib/core/package-root.js';
import { parseYaml } from '../../lib/fs/frontmatter.js';
import { loadOrgFile, validateOrg } from '../../lib/org/org-chart.js';
import {
  findGate,
  firstGate,
  listWorkflows,
  loadWorkflow,
  nextGate,
  originGate,
  validateWorkflow,
  type Workflow,
} from '../../lib/org/workflow.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

const IMPLEMENT_REVIEW = `workflow:
  name: implement-review
  rejectionStrategy: origin
  gates:
    - id: implement
      role: implementer
      description: Write it.
    - id: review
      role: reviewer
      description: Check it.
      canReject: true
  outcomes:
    complete: advance
    needs_review: reject
    blocked: hold
`;

function writeWorkflow(root: string, name: string, yaml: string): void {
  mkdirSync(join(root, 'org', 'workflows'), { recursive: true });
  writeFileSync(join(root, 'org', 'workflows', `${name}.yaml`), yaml);
}

async function rejection(fn: () => Promise<unknown>): Promise<{ code: string; message: string; hint?: string }> {
  try {
    await fn();
  } catch (err) {
    return err as { code: string; message: string; hint?: string };
  }
  throw new Error('expected an error');
}

const org = validateOrg(
  {
    schemaVersion: 1,
    agents: [{ id: 'dev', name: 'Dev' }],
    roles: { implementer: { agents: ['dev'] }, reviewer: { agents: ['dev'] } },
  },
  'chart',
);

const load = suite('org.loadWorkflow');
load.after.each(cleanRoots);

load('loads org/workflows/<name>.yaml', async () => {
  const root = tempRoot();
  writeWorkflow(root, 'implement-review', IMPLEMENT_REVIEW);
  const workflow = await loadWorkflow(root, 'implement-review', { org });
  assert.is(workflow.name, 'implement-review');
  assert.equal(
    workflow.gates.map((g) => [g.id, g.role, g.canReject]),
    [
      ['implement', 'implementer', undefined],
      ['review', 'reviewer', true],
    ],
  );
  assert.equal(workflow.outcomes, { complete: 'advance', needs_review: 'reject', blocked: 'hold' });
  assert.equal(await listWorkflows(root), ['implement-review']);
});

load('is not_found for a missing workflow and names the known ones', async () => {
  const root = tempRoot();
  writeWorkflow(root, 'implement-review', IMPLEMENT_REVIEW);
  const err = await rejection(() => loadWorkflow(root, 'deploy'));
  assert.is(err.code, 'not_found');
  assert.match(err.message, /Workflow "deploy" not found/);
  assert.match(err.hint!, /Known workflows: implement-review/);
});

load('refuses a name that is not a plain file name', async () => {
  const err = await rejection(() => loadWorkflow(tempRoot(), '../org-chart'));
  assert.is(err.code, 'validation_error');
  assert.match(err.message, /Invalid workflow name "\.\.\/org-chart"/);
});

load('checks gate roles against the org chart roles when one is given', async () => {
  const root = tempRoot();
  writeWorkflow(root, 'ship', IMPLEMENT_REVIEW.replace('role: reviewer', 'role: auditor'));
  assert.is((await loadWorkflow(root, 'ship')).gates[1]!.role, 'auditor');
  const err = await rejection(() => loadWorkflow(root, 'ship', { org }));
  assert.is(err.code, 'validation_error');
  assert.match(
    err.message,
    /workflow\.gates\[1\]\.role: unknown role "auditor" \(org chart roles: implementer, reviewer\)/,
  );
});

const validate = suite('org.validateWorkflow');

validate('lists every problem of a workflow', () => {
  try {
    validateWorkflow(
      {
        workflow: {
          rejectionStrategy: 'previous',
          gates: [{ id: 'a', role: 'implementer' }, { id: 'a' }],
          outcomes: { needs_review: 'hold' },
        },
      },
      'wf.yaml',
    );
    assert.unreachable('should refuse');
  } catch (err) {
    const { code, message } = err as { code: string; message: string };
    assert.is(code, 'validation_error');
    assert.match(message, /^wf\.yaml: invalid workflow \(5 problems\):/);
    assert.match(message, /  workflow\.name: required \(string\)/);
    assert.match(message, /  workflow\.rejectionStrategy: must be "origin" \(found "previous"\)/);
    assert.match(
      message,
      /  workflow\.gates\[1\]\.role: is required \(only an approval gate, `approval: true`, has no role\)/,
    );
    assert.match(message, /  workflow\.outcomes\.needs_review: must be "reject"/);
    assert.match(message, /  workflow\.gates\[1\]\.id: duplicate gate id "a"/);
  }
});

validate('an approval gate needs no role; it cannot be the first gate, and approval must be a boolean', () => {
  const workflow = validateWorkflow(
    {
      workflow: {
        name: 'ship',
        gates: [
          { id: 'do', role: 'implementer' },
          { id: 'signoff', approval: true },
        ],
      },
    },
    'wf',
  );
  assert.equal(
    workflow.gates.map((g) => [g.id, g.role, g.approval]),
    [
      ['do', 'implementer', undefined],
      ['signoff', undefined, true],
    ],
  );
  try {
    validateWorkflow(
      {
        workflow: {
          name: 'bad',
          gates: [
            { id: 'first', approval: true },
            { id: 'then', role: 'implementer', approval: 'yes' },
          ],
        },
      },
      'wf.yaml',
    );
    assert.unreachable('should refuse');
  } catch (err) {
    const { code, message } = err as { code: string; message: string };
    assert.is(code, 'validation_error');
    assert.match(message, /  workflow\.gates\[0\]\.approval: the first gate cannot be an approval gate/);
    assert.match(message, /  workflow\.gates\[1\]\.approval: /);
  }
});

validate('defaults rejectionStrategy, outcomes and descriptions', () => {
  const workflow = validateWorkflow({ workflow: { name: 'solo', gates: [{ id: 'do', role: 'implementer' }] } }, 'wf');
  assert.is(workflow.rejectionStrategy, 'origin');
  assert.equal(workflow.outcomes, { complete: 'advance', needs_review: 'reject', blocked: 'hold' });
  assert.is(workflow.gates[0]!.description, '');
});

validate('accepts the shipped template against the shipped org chart', async () => {
  const chart = await loadOrgFile(templatePath('org-chart.yaml'));
  const file = templatePath('workflows', 'implement-review.yaml');
  const workflow = validateWorkflow(parseYaml(readFileSync(file, 'utf8'), file), file, { org: chart });
  assert.equal(
    workflow.gates.map((g) => [g.id, g.role, g.canReject ?? false]),
    [
      ['implement', 'implementer', false],
      ['review', 'reviewer', true],
    ],
  );
});

const gates = suite('org.gates');
const three = validateWorkflow(
  {
    workflow: {
      name: 'three',
      gates: [
        { id: 'draft', role: 'implementer' },
        { id: 'review', role: 'reviewer' },
        { id: 'publish', role: 'implementer' },
      ],
    },
  },
  'wf',
) as Workflow;

gates('firstGate and originGate are the first gate', () => {
  assert.is(firstGate(three).id, 'draft');
  assert.is(originGate(three).id, 'draft');
});

gates('nextGate walks the gates and is null at the last', () => {
  assert.is(nextGate(three, 'draft')!.id, 'review');
  assert.is(nextGate(three, 'review')!.id, 'publish');
  assert.is(nextGate(three, 'publish'), null);
});

gates('nextGate refuses a gate the workflow does not have', () => {
  try {
    nextGate(three, 'deploy');
    assert.unreachable('should refuse');
  } catch (err) {
    assert.is((err as { code: string }).code, 'validation_error');
    assert.match((err as Error).message, /no gate "deploy" \(gates: draft, review, publish\)/);
  }
});

gates('findGate returns the gate or null', () => {
  assert.is(findGate(three, 'review')!.role, 'reviewer');
  assert.is(findGate(three, 'deploy'), null);
});

load.run();
validate.run();
gates.run();
