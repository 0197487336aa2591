import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { TOOLS } from '../../../lib/tools/index.js';
import { writeOrg } from '../../helpers/agents.js';
import { call, closeDaemons, startTestDaemon } from '../../helpers/daemon.js';
import { parsePrometheus, valueOf, type Scrape } from '../../helpers/prometheus.js';
import { cleanRoots, tempRoot, within } from '../../helpers/root.js';

async function scrape(root: string): Promise<Scrape> {
  const { status, body } = await call(root, 'GET', '/metrics');
  assert.is(status, 200, String(body));
  return parsePrometheus(String(body));
}

async function invoke(root: string, tool: string, params: Record<string, unknown>) {
  const { status, body } = await call(root, 'POST', '/v1/tool/invoke', { tool, params });
  assert.is(status, 200, JSON.stringify(body));
  return (body as { result: Record<string, unknown> }).result;
}

const usage = suite('daemon.metrics of agent usage');
usage.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

usage('run.usage events count tokens by agent, model and kind, and the known cost by agent and model', async () => {
  const root = tempRoot();
  writeOrg(root, {
    agents: [
      { id: 'dev', name: 'Dev', model: 'local-7b' },
      { id: 'lead', name: 'Lead' },
    ],
    aof: { pricing: { 'big-1': { inputUsdPerMTok: 10, outputUsdPerMTok: 20 } } },
  });
  await startTestDaemon(root, { tools: TOOLS, schedule: false });
  const before = await scrape(root);
  assert.is(before.types.get('svc_agent_tokens_total'), 'counter');
  assert.is(before.types.get('svc_agent_cost_usd_total'), 'counter');
  const { taskId } = await invoke(root, 'svc_dispatch', { title: 'Metered', brief: 'Count it.', agent: 'dev' });
  const report = (actor: string, usage: Record<string, unknown>) =>
    invoke(root, 'svc_task_update', { taskId, actor, usage });
  await report('dev', { inputTokens: 100, outputTokens: 10, cacheReadTokens: 1000, model: 'local-7b', costUsd: 0.5 });
  await report('dev', { inputTokens: 100_000, outputTokens: 50_000, model: 'big-1' });
  await report('lead', { inputTokens: 7, outputTokens: 3, model: 'secret-model' });
  await report('intruder', { inputTokens: 5, outputTokens: 5, model: 'local-7b' });
  const after = await within(
    10_000,
    async () => {
      const now = await scrape(root);
      return valueOf(now, 'svc_agent_tokens_total', { agent: 'other', model: 'local-7b', kind: 'input' }) === 5
        ? now
        : null;
    },
    'the four reports counted',
  );
  const tokens = (agent: string, model: string, kind: string) =>
    valueOf(after, 'svc_agent_tokens_total', { agent, model, kind });
  assert.is(tokens('dev', 'local-7b', 'input'), 100);
  assert.is(tokens('dev', 'local-7b', 'output'), 10);
  assert.is(tokens('dev', 'local-7b', 'cache_read'), 1000);
  assert.is(tokens('dev', 'local-7b', 'cache_write'), undefined, 'no tokens of a kind: no sample');
  assert.is(tokens('dev', 'big-1', 'output'), 50_000, 'a model of aof.pricing is named by the chart');
  assert.is(tokens('lead', 'other', 'input'), 7, 'a model no agent names counts as other');
  const cost = (agent: string, model: string) => valueOf(after, 'svc_agent_cost_usd_total', { agent, model });
  assert.is(cost('dev', 'local-7b'), 0.5);
  assert.is(cost('dev', 'big-1'), 2);
  assert.is(cost('lead', 'other'), undefined, 'an unknown cost adds nothing');
});

usage.run();
