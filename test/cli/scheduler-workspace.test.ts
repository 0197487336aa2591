import { hostname } from 'node:os';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createStore } from '../../lib/store/commit/store.js';
import { completingAgent, writeOrg } from '../helpers/agents.js';
import { svc } from '../helpers/cli.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

const hold = suite('cli.scheduler run workspace-host');
hold.after.each(cleanRoots);

hold(
  'svc scheduler run shows that a task whose worktree is on another host is held, and dispatches one on this host',
  async () => {
    const root = tempRoot();
    writeOrg(root, { agents: [{ id: 'dev', name: 'Dev', command: completingAgent(), maxConcurrent: 2 }] });
    const store = createStore({ root });
    await store.init();
    const ids: string[] = [];
    for (const host of ['elsewhere.example', hostname()]) {
      const created = await store.create({
        title: `On ${host}`,
        status: 'backlog',
        routing: { agent: 'dev' },
        createdBy: 'test',
      });
      await store.commit(
        created.task.id,
        (current) => ({
          task: {
            ...current.task,
            workspace: {
              name: 'app',
              path: `/w/${current.task.id}`,
              branch: `svc/${current.task.id}`,
              base: 'main',
              host,
            },
          },
          body: current.body,
          status: 'ready',
        }),
        'test',
      );
      ids.push(created.task.id);
    }
    const out = await svc(root, 'scheduler', 'run');
    assert.is(out.code, 0, out.stderr);
    assert.match(
      out.stdout,
      new RegExp(
        `hold        ${ids[0]}: workspace-host: its worktree is on host elsewhere\\.example; only the daemon there dispatches it`,
      ),
    );
    assert.match(out.stdout, new RegExp(`dispatch    ${ids[1]} -> dev \\(command\\)`));
  },
);

hold.run();
