import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { TOOLS } from '../../lib/tools/index.js';
import { toToolManifest } from '../../lib/tools/manifest.js';
import { TOOL_NAMES } from '../../lib/tools/names.js';
import { OPERATOR_TOOLS } from '../../lib/tools/operator.js';
import { cleanRoots } from '../helpers/root.js';
import { rejects, setup, snapshot } from './helpers.js';

const NAMES = [
  'svc_dispatch',
  'svc_task_complete',
  'svc_task_update',
  'svc_task_edit',
  'svc_task_cancel',
  'svc_task_dep_add',
  'svc_task_dep_remove',
  'svc_task_block',
  'svc_task_unblock',
  'svc_status',
  'svc_task_note',
];

const registry = suite('tools.invokeTool');
registry.after.each(cleanRoots);

registry('TOOLS holds exactly the ten tools of the specification, then svc_task_note', () => {
  assert.equal(
    TOOLS.map((tool) => tool.name),
    NAMES,
  );
});

registry('every tool accepts actor; every taskId accepts a unique prefix with or without TASK-', async () => {
  const { call, store, events } = setup();
  const { task } = await store.create({ title: 'Prefixed', createdBy: 'test' });
  for (const prefix of ['TASK-2026-11-21-0', '2026-11-21-001']) {
    const result = await call('svc_task_edit', { taskId: prefix, title: `Prefixed ${prefix}`, actor: 'lead' });
    assert.is(result.taskId, task.id);
  }
  assert.ok((await events()).filter((e) => e.type === 'task.updated').every((e) => e.actor === 'lead'));
  for (const name of NAMES) {
    const schema = toToolManifest().find((entry) => entry.name === name)!.inputSchema as {
      properties: Record<string, unknown>;
    };
    assert.ok('actor' in schema.properties, `${name} lacks actor`);
  }
});

registry('an ambiguous prefix is ambiguous_id listing the matches, and nothing changes', async () => {
  const { call, store, root } = setup();
  await store.create({ title: 'One', createdBy: 'test' });
  await store.create({ title: 'Two', createdBy: 'test' });
  const before = snapshot(root);
  const calls: Array<[string, Record<string, unknown>]> = [
    ['svc_task_update', { taskId: '2026-11-21', body: 'x' }],
    ['svc_task_cancel', { taskId: '2026-11-21' }],
    ['svc_task_complete', { taskId: 'TASK-2026' }],
  ];
  for (const [name, params] of calls) {
    await rejects(call(name, params), 'ambiguous_id', 'matches 2 tasks', 'TASK-2026-11-21-001', 'TASK-2026-11-21-002');
  }
  await rejects(
    call('svc_task_dep_add', { taskId: 'TASK-2026-11-21-001', blockerId: '2026-11' }),
    'ambiguous_id',
    'TASK-2026-11-21-002',
  );
  assert.equal(snapshot(root), before);
});

registry('an unknown id is not_found', async () => {
  const { call } = setup();
  await rejects(call('svc_task_cancel', { taskId: 'TASK-2026-11-21-404' }), 'not_found', 'TASK-2026-11-21-404');
});

registry('a path-like id is a validation_error naming the parameter, and touches nothing', async () => {
  const { call, store, root } = setup();
  await store.create({ title: 'Target', createdBy: 'test' });
  const before = snapshot(root);
  for (const taskId of ['../x', '../../etc/passwd', 'a/b', '.hidden', 'TASK..1']) {
    await rejects(call('svc_task_update', { taskId, body: 'pwned' }), 'validation_error', 'taskId', 'no "/", no ".."');
  }
  await rejects(
    call('svc_task_dep_add', { taskId: 'TASK-2026-11-21-001', blockerId: '../x' }),
    'validation_error',
    'blockerId',
  );
  await rejects(
    call('svc_dispatch', { title: 'x', brief: 'x', dependsOn: ['../x'] }),
    'validation_error',
    'dependsOn.0',
  );
  assert.equal(snapshot(root), before);
});

registry('an unknown tool is unknown_tool listing the known ones', async () => {
  const { call } = setup();
  const error = await rejects(call('svc_task_delete', { taskId: 'x' }), 'unknown_tool', 'svc_task_delete');
  assert.ok(error.hint?.includes('svc_dispatch'));
  await rejects(call('', {}), 'validation_error', '`tool`');
});

registry('unknown params are named with the known ones; wrong types name the field', async () => {
  const { call } = setup();
  await rejects(
    call('svc_task_cancel', { taskId: 'x', force: true, why: 'x' }),
    'validation_error',
    'unknown parameter "force", "why"',
    'known: taskId, reason, actor',
  );
  await rejects(call('svc_task_update', { taskId: 7 }), 'validation_error', 'taskId', 'expected string');
  await rejects(call('svc_status', { compact: 'yes' }), 'validation_error', 'compact', 'expected boolean');
  await rejects(call('svc_task_complete', { taskId: 'x', outcome: 'approved' }), 'validation_error', 'outcome');
  await rejects(call('svc_status', [1, 2]), 'validation_error', 'expected object');
});

const manifest = suite('tools.toToolManifest');

manifest('generates one closed JSON schema per tool from its zod schema', () => {
  const entries = toToolManifest();
  assert.equal(
    entries.map((entry) => entry.name),
    NAMES,
  );
  for (const entry of entries) {
    assert.ok(entry.description.length > 20, entry.name);
    assert.is(entry.inputSchema.type, 'object');
    assert.is(entry.inputSchema.additionalProperties, false, entry.name);
    assert.is(entry.inputSchema.$schema, undefined);
  }
  const dispatch = entries[0]!.inputSchema as { required: string[]; properties: Record<string, { enum?: string[] }> };
  assert.equal(dispatch.required, ['title', 'brief']);
  assert.equal(dispatch.properties.priority!.enum, ['low', 'normal', 'high', 'critical']);
  const block = entries.find((entry) => entry.name === 'svc_task_block')!.inputSchema as { required: string[] };
  assert.equal(block.required, ['taskId', 'reason']);
  const status = entries.find((entry) => entry.name === 'svc_status')!.inputSchema as { required?: string[] };
  assert.is(status.required, undefined);
});

manifest(
  'TOOL_NAMES (help and "did you mean" without loading the tools) are the names of TOOLS, in order; no operator call is an agent tool',
  () => {
    assert.equal(
      [...TOOL_NAMES],
      TOOLS.map((tool) => tool.name),
    );
    assert.equal(
      OPERATOR_TOOLS.filter((tool) => !tool.name.startsWith('operator_')),
      [],
    );
    assert.equal(
      toToolManifest().filter((entry) => entry.name.startsWith('operator_')),
      [],
    );
  },
);

registry.run();
manifest.run();
