import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { TOOLS } from '../../../lib/tools/index.js';
import { OPERATOR_TOOLS } from '../../../lib/tools/operator.js';
import { svc } from '../../helpers/cli.js';
import { closeDaemons, startTestDaemon } from '../../helpers/daemon.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';

const replay = suite('cli.operate request ids');
replay.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

for (const daemon of [false, true]) {
  replay(
    `a create rerun with its --request-id says it is a replay and creates nothing (${daemon ? 'through a daemon' : 'no daemon'})`,
    async () => {
      const root = tempRoot();
      if (daemon) await startTestDaemon(root, { schedule: false, tools: [...TOOLS, ...OPERATOR_TOOLS] });
      const first = await svc(root, 'task', 'create', 'Once', '--request-id', 'create-1');
      assert.equal([first.code, first.stderr], [0, '']);
      const again = await svc(root, 'task', 'create', 'Once', '--request-id', 'create-1');
      assert.equal([again.code, again.stdout], [0, first.stdout]);
      assert.is(
        again.stderr,
        'note: a replay: request create-1 was already done, and this is the first answer again; nothing was done now.\n',
      );
      const listed = JSON.parse((await svc(root, 'task', 'list', '--json')).stdout) as unknown[];
      assert.is(listed.length, 1);
    },
  );
}

replay.run();
