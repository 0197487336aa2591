import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { geminiInvocation } from '../../../lib/adapters/runtimes/gemini-invocation.js';
import type { InvocationContext } from '../../../lib/adapters/runtimes/runtime.js';
import type { Permission } from '../../../lib/org/runtimes.js';

const RUN = '/srv/svc/data/runs/r1';
const STATE = '/srv/svc/data/runtime-state/TASK-1/coder';

function contextOf(permissions: Permission, extra: Partial<InvocationContext> = {}): InvocationContext {
  return {
    agent: { id: 'coder', model: 'gemini-3.8-flash', permissions },
    prompt: 'Do the task.',
    cwd: '/srv/work/TASK-1',
    runDir: RUN,
    stateDir: STATE,
    home: '/home/me',
    mcp: { command: '/usr/bin/node', args: ['/opt/svc/bin/svc.js', 'mcp'], env: { SVC_HOME: '/srv/svc' } },
    svcTools: ['svc_task_complete', 'svc_status'],
    ...extra,
  };
}

function argAfter(args: string[], flag: string): string | undefined {
  const at = args.indexOf(flag);
  return at < 0 ? undefined : args[at + 1];
}

const invocation = suite('runtimes.geminiInvocation');

invocation('headless stream-json with the prompt on stdin, and the model named', () => {
  const { args, promptOnStdin } = geminiInvocation(contextOf('edit'));
  assert.ok(promptOnStdin);
  assert.is(argAfter(args, '--output-format'), 'stream-json');
  assert.is(argAfter(args, '--model'), 'gemini-3.8-flash');
  assert.is(argAfter(args, '--allowed-mcp-server-names'), 'svc');
  assert.ok(args.includes('--skip-trust'));
  assert.not.ok(args.includes('Do the task.'));
  assert.not.ok(args.includes('--resume'));
});

invocation('each permission maps to the CLI approval mode', () => {
  const modes = (['read-only', 'edit', 'full'] as const).map((permission) =>
    argAfter(geminiInvocation(contextOf(permission)).args, '--approval-mode'),
  );
  assert.equal(modes, ['default', 'auto_edit', 'yolo']);
});

invocation('a resumed run names the session, a base URL goes in the environment', () => {
  const context = contextOf('edit', { resume: 'b0c0d5d3-6414-429d-b777-b8b65c657a59' });
  context.agent = { ...context.agent, baseUrl: 'http://127.0.0.1:4000' };
  const { args, env } = geminiInvocation(context);
  assert.is(argAfter(args, '--resume'), 'b0c0d5d3-6414-429d-b777-b8b65c657a59');
  assert.is(env.GOOGLE_GEMINI_BASE_URL, 'http://127.0.0.1:4000');
  assert.not.ok('GOOGLE_GEMINI_BASE_URL' in geminiInvocation(contextOf('edit')).env);
});

invocation('with a base URL the API key is the auth, without one the environment chooses', () => {
  const authOf = (context: InvocationContext) =>
    JSON.parse(geminiInvocation(context).files.find((file) => file.path.endsWith('.json'))?.content ?? '{}').security
      .auth;
  const context = contextOf('edit');
  assert.is(
    authOf({ ...context, agent: { ...context.agent, baseUrl: 'http://127.0.0.1:4000' } }).selectedType,
    'gemini-api-key',
  );
  const proxied = { ...context.agent, env: { GOOGLE_GEMINI_BASE_URL: 'http://127.0.0.1:4000' } };
  assert.is(authOf({ ...context, agent: proxied }).selectedType, 'gemini-api-key');
  assert.is(authOf(context), undefined);
});

invocation('every file is in the run directory, the CLI home too: nothing of the user home is written', () => {
  const { files, env, args } = geminiInvocation(contextOf('read-only'));
  assert.is(env.GEMINI_CLI_HOME, join(STATE, 'gemini-home'), 'the agent keeps its home across runs');
  for (const file of files) assert.ok(file.path.startsWith(`${RUN}/`) || file.path.startsWith(`${STATE}/`), file.path);
  assert.is(argAfter(args, '--policy'), join(RUN, 'gemini-policy.toml'));
});

invocation('the settings start svc mcp with its environment, offer svc tools and turn the phoning home off', () => {
  const { files } = geminiInvocation(contextOf('edit'));
  const settings = JSON.parse(files.find((file) => file.path.endsWith('settings.json'))?.content ?? '{}');
  assert.equal(settings.mcpServers.svc, {
    command: '/usr/bin/node',
    args: ['/opt/svc/bin/svc.js', 'mcp'],
    env: { SVC_HOME: '/srv/svc' },
    includeTools: ['svc_task_complete', 'svc_status'],
  });
  assert.is(settings.privacy.usageStatisticsEnabled, false);
  assert.is(settings.telemetry.enabled, false);
  assert.is(settings.general.enableAutoUpdate, false);
  assert.is(settings.security.folderTrust.enabled, false);
});

invocation('the policy allows svc tools whatever the approval mode', () => {
  const { files } = geminiInvocation(contextOf('read-only'));
  const policy = files.find((file) => file.path.endsWith('.toml'))?.content ?? '';
  assert.match(policy, /mcpName = "svc"/);
  assert.match(policy, /toolName = \["svc_task_complete", "svc_status"\]/);
  assert.match(policy, /decision = "allow"/);
});

invocation.run();
