import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { TOOLS } from '../../lib/tools/index.js';
import { toPaths } from '../../lib/store/disk/paths.js';
import { writeOrg } from '../helpers/agents.js';
import { call, closeDaemons, startTestDaemon } from '../helpers/daemon.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

const org = suite('daemon org chart of the tools');
org.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

const WHOLE_SECOND = 1_700_000_000;

const dispatch = async (root: string, agent: string) =>
  (await call(root, 'POST', '/v1/tool/invoke', { tool: 'svc_dispatch', params: { title: 'T', brief: 'B', agent } }))
    .body as { ok: boolean; error?: { code: string; message: string } };

org('the tools read the chart once per version of its file: not per call, and again once it changes', async () => {
  const root = tempRoot();
  writeOrg(root, { agents: [{ id: 'alpha', name: 'Alpha' }] });
  const file = toPaths(root).orgChart;
  utimesSync(file, WHOLE_SECOND, WHOLE_SECOND); // a time that can be set again exactly
  await startTestDaemon(root, { tools: TOOLS, schedule: false });
  assert.ok((await dispatch(root, 'alpha')).ok);
  // Other bytes of the same length, the same inode and times: the daemon sees the version it has.
  writeFileSync(file, readFileSync(file, 'utf8').replaceAll('alpha', 'omega'));
  utimesSync(file, WHOLE_SECOND, WHOLE_SECOND);
  assert.ok((await dispatch(root, 'alpha')).ok, 'the chart in memory still has alpha: the file was not read again');
  writeOrg(root, {
    agents: [
      { id: 'omega', name: 'Omega' },
      { id: 'beta', name: 'Beta' },
    ],
  });
  const refused = await dispatch(root, 'alpha');
  assert.is(refused.error?.code, 'validation_error', 'a new version of the file is read at the next call');
  assert.ok((await dispatch(root, 'beta')).ok);
});

org('an invalid chart is the call’s error until it is fixed, as without a daemon', async () => {
  const root = tempRoot();
  writeOrg(root, { agents: [{ id: 'alpha', name: 'Alpha' }] });
  await startTestDaemon(root, { tools: TOOLS, schedule: false });
  writeFileSync(toPaths(root).orgChart, 'schemaVersion: 1\nagents: 7\n');
  assert.is((await dispatch(root, 'alpha')).error?.code, 'validation_error');
  assert.is((await dispatch(root, 'alpha')).error?.code, 'validation_error');
  writeOrg(root, { agents: [{ id: 'alpha', name: 'Alpha' }] });
  assert.ok((await dispatch(root, 'alpha')).ok);
});

org.run();
