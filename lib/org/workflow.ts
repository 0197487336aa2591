import { readdir } from 'node:fs/promises';
import * as z from 'zod';
import { SvcError } from '../core/errors.js';
import { isSafeId } from '../core/ids.js';
import { toDidYouMean } from '../core/suggest.js';
import { parseYaml } from '../fs/frontmatter.js';
import { readIfExists, toWorkflowFile, toWorkflowsDir } from './files.js';
import { describeIssue, recordsOf, throwProblems, toProblems, type Problem } from './problems.js';
import type { OrgChart } from './schema.js';

/**
 * One gate (hop) of a workflow: the role that works it, and whether it may reject. An approval gate
 * (`approval: true`) is never dispatched: a person approves or rejects it (docs/approvals-and-logs.md).
 */
export const GateDefSchema = z.looseObject({
  id: z.string().min(1, 'must not be empty'),
  role: z.string().min(1, 'must not be empty').optional(),
  description: z.string().default(''),
  canReject: z.boolean().optional(),
  approval: z.boolean().optional(),
  /** Checks of the org chart (`aof.checks`) run when an agent completes this gate (docs/workspaces.md). */
  verify: z.array(z.string().min(1, 'must not be empty')).optional(),
});

/** The body of a workflow file (under the top key `workflow`). */
export const WorkflowSchema = z.looseObject({
  name: z.string().min(1, 'must not be empty'),
  rejectionStrategy: z
    .literal('origin', { error: (iss) => `must be "origin" (found ${JSON.stringify(iss.input)})` })
    .default('origin'),
  gates: z.array(GateDefSchema).min(1, 'needs at least one gate'),
  outcomes: z
    .looseObject({
      complete: z.literal('advance', { error: 'must be "advance"' }).default('advance'),
      needs_review: z.literal('reject', { error: 'must be "reject"' }).default('reject'),
      blocked: z.literal('hold', { error: 'must be "hold"' }).default('hold'),
    })
    .prefault({}),
});

const FileSchema = z.looseObject({ workflow: WorkflowSchema });

export type Workflow = z.output<typeof WorkflowSchema>;
export type GateDef = z.output<typeof GateDefSchema>;

/** What validation checks beyond the file itself. */
export interface WorkflowOptions {
  /** When given, every gate role must be a role of this org chart. */
  org?: OrgChart | null;
}

/** Loads `org/workflows/<name>.yaml`; `not_found` names the known workflows, `validation_error` lists every problem. */
export async function loadWorkflow(root: string, name: string, options: WorkflowOptions = {}): Promise<Workflow> {
  if (!isSafeId(name)) {
    throw new SvcError(
      'validation_error',
      `Invalid workflow name ${JSON.stringify(name)}: names are letters, digits, '.', '_' and '-'.`,
      'Set routing.workflow to the name of a file in org/workflows/ without .yaml.',
    );
  }
  const file = toWorkflowFile(root, name);
  const text = await readIfExists(file);
  if (text === null) {
    const known = await listWorkflows(root);
    const hint = known.length
      ? `Known workflows: ${known.join(', ')}.`
      : 'No workflows exist yet: copy templates/workflows/implement-review.yaml into org/workflows/.';
    throw new SvcError(
      'not_found',
      `Workflow ${JSON.stringify(name)} not found: ${file} does not exist.${toDidYouMean(name, known)}`,
      hint,
    );
  }
  return validateWorkflow(parseYaml(text, file), file, options);
}

/** The names of the workflows of a root (the `.yaml` files in `org/workflows/`), sorted. */
export async function listWorkflows(root: string): Promise<string[]> {
  const names = await readdir(toWorkflowsDir(root)).catch(() => [] as string[]);
  return names
    .filter((n) => n.endsWith('.yaml') && !n.startsWith('.'))
    .map((n) => n.slice(0, -5))
    .sort();
}

/** Validates workflow file data (top key `workflow`), listing every problem; returns the workflow. */
export function validateWorkflow(data: unknown, source: string, options: WorkflowOptions = {}): Workflow {
  const result = FileSchema.safeParse(data, { error: describeIssue });
  const gates = recordsOf((data as { workflow?: { gates?: unknown } } | null)?.workflow?.gates);
  const problems: Problem[] = [
    ...(result.success ? [] : toProblems(result.error.issues)),
    ...duplicateGates(gates),
    ...approvalProblems(gates),
    ...(options.org ? unknownRoles(gates, options.org) : []),
    ...(options.org ? unknownChecks(gates, options.org) : []),
  ];
  if (problems.length || !result.success) {
    throwProblems(problems, {
      source,
      what: 'workflow',
      hint: 'Fix the listed fields (templates/workflows/implement-review.yaml is an example).',
    });
  }
  return result.data.workflow;
}

/** The gate a gated task starts at. */
export function firstGate(workflow: Workflow): GateDef {
  return workflow.gates[0]!;
}

/** The gate of the given id, or null when the workflow has none (it was edited since). */
export function findGate(workflow: Workflow, gateId: string): GateDef | null {
  return workflow.gates.find((gate) => gate.id === gateId) ?? null;
}

/** The gate after `currentGateId`, or null at the last gate; an unknown gate id is a `validation_error`. */
export function nextGate(workflow: Workflow, currentGateId: string): GateDef | null {
  const index = workflow.gates.findIndex((gate) => gate.id === currentGateId);
  if (index < 0) {
    const known = workflow.gates.map((gate) => gate.id).join(', ');
    throw new SvcError(
      'validation_error',
      `Workflow ${JSON.stringify(workflow.name)} has no gate ${JSON.stringify(currentGateId)} (gates: ${known}).`,
      'The workflow file changed under the task: set gate.current to one of the listed gates.',
    );
  }
  return workflow.gates[index + 1] ?? null;
}

/** The gate a rejection (`needs_review`) returns to: with strategy `origin`, the first gate. */
export function originGate(workflow: Workflow): GateDef {
  return firstGate(workflow);
}

// --- internal ---

function duplicateGates(gates: Array<[number, Record<string, unknown>]>): Problem[] {
  const seen = new Set<unknown>();
  const problems: Problem[] = [];
  for (const [i, gate] of gates) {
    if (typeof gate.id === 'string' && seen.has(gate.id)) {
      problems.push({ path: `workflow.gates[${i}].id`, problem: `duplicate gate id ${JSON.stringify(gate.id)}` });
    }
    seen.add(gate.id);
  }
  return problems;
}

/** Every gate but an approval gate names its role; the first gate is an agent's (a rejection returns there). */
function approvalProblems(gates: Array<[number, Record<string, unknown>]>): Problem[] {
  return gates.flatMap(([i, gate]): Problem[] => {
    if (gate.approval !== true)
      return gate.role === undefined
        ? [
            {
              path: `workflow.gates[${i}].role`,
              problem: 'is required (only an approval gate, `approval: true`, has no role)',
            },
          ]
        : [];
    if (i === 0)
      return [
        {
          path: `workflow.gates[0].approval`,
          problem: 'the first gate cannot be an approval gate: a rejection returns the task there, to an agent',
        },
      ];
    return [];
  });
}

function unknownChecks(gates: Array<[number, Record<string, unknown>]>, org: OrgChart): Problem[] {
  const known = Object.keys(org.aof.checks);
  return gates.flatMap(([i, gate]) =>
    (Array.isArray(gate.verify) ? gate.verify : []).flatMap((name: unknown, j: number) => {
      if (typeof name !== 'string' || known.includes(name)) return [];
      return [
        {
          path: `workflow.gates[${i}].verify[${j}]`,
          problem:
            `unknown check ${JSON.stringify(name)} (org chart checks: ` +
            `${known.length ? known.join(', ') : 'none declared under aof.checks'}).${toDidYouMean(name, known)}`,
        },
      ];
    }),
  );
}

function unknownRoles(gates: Array<[number, Record<string, unknown>]>, org: OrgChart): Problem[] {
  const known = Object.keys(org.roles);
  return gates.flatMap(([i, gate]) => {
    if (typeof gate.role !== 'string' || !gate.role || known.includes(gate.role)) return [];
    const list = known.length ? known.join(', ') : 'none declared';
    return [
      {
        path: `workflow.gates[${i}].role`,
        problem: `unknown role ${JSON.stringify(gate.role)} (org chart roles: ${list})`,
      },
    ];
  });
}
