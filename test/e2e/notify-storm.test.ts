// No storms: 200 deadletters in a burst reach the receiver as a handful of coalesced notifications; a command
// subscription gets the notification as JSON on its stdin, and a command that hangs is killed at the timeout and
// run again.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { isAlive } from '../../lib/daemon/instance/pid.js';
import { appendEvents } from '../../lib/store/events/log.js';
import { TOOLS } from '../../lib/tools/index.js';
import { svc } from '../helpers/cli.js';
import { closeDaemons, startTestDaemon } from '../helpers/daemon.js';
import { startReceiver, type HttpReceiver } from '../helpers/http-receiver.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';
import { bodyOf, subscription, untilOutboxEmpty, writeNotifyOrg, type JsonBody } from './notify-setup.js';

const flow = suite('e2e.notify-storm');
let receiver: HttpReceiver;
flow.before.each(async () => {
  receiver = await startReceiver();
});
flow.after.each(async () => {
  await closeDaemons();
  await receiver.close();
  cleanRoots();
});

flow('200 deadletters in a burst arrive as a handful of notifications that count them all', async () => {
  const root = tempRoot();
  writeNotifyOrg(root, {
    notify: [subscription({ id: 'ops', webhook: receiver.url, events: ['task.deadletter'], coalesceMs: 10_000 })],
  });
  await startTestDaemon(root, { tools: TOOLS, env: process.env });
  // one broken agent deadletters 200 tasks: 20 every 100 ms, as its daemon records them
  for (let batch = 0; batch < 10; batch++) {
    const events = Array.from({ length: 20 }, (_, n) => ({
      type: 'task.deadletter' as const,
      taskId: `TASK-2026-11-29-${String(batch * 20 + n + 1).padStart(3, '0')}`,
      actor: 'system',
      payload: { reason: 'max_dispatch_failures' as const, failureCount: 3, lastFailureReason: 'exited' },
    }));
    await appendEvents(root, new Date(), events);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const counted = (bodies: JsonBody[]) => bodies.reduce((n, body) => n + (body.coalesced?.count ?? 1), 0);
  await within(20_000, () => counted(receiver.requests.map(bodyOf)) >= 200, 'all 200 deadletters counted');
  await untilOutboxEmpty(root);
  const bodies = receiver.requests.map(bodyOf);
  assert.ok(bodies.length <= 5, `a handful of notifications, not 200 (${bodies.length})`);
  assert.is(counted(bodies), 200);
  assert.is(bodies[0]!.event.taskId, 'TASK-2026-11-29-001', 'the first goes at once, alone');
  const gathered = bodies.find((body) => body.coalesced)!;
  assert.ok(gathered.coalesced!.taskIds.length > 0 && gathered.coalesced!.taskIds.length < 20, 'names the first few');
});

flow('a command gets the JSON on stdin; one that hangs is killed at the timeout and run again', async () => {
  const root = tempRoot();
  const script = `${root}/notify-command.js`;
  writeFileSync(
    script,
    `const fs = require('node:fs');
const dir = process.argv[2];
if (!fs.existsSync(dir + '/first.pid')) {
  fs.writeFileSync(dir + '/first.pid', String(process.pid));
  setInterval(() => {}, 1000);
} else {
  let text = '';
  process.stdin.on('data', (chunk) => (text += chunk));
  process.stdin.on('end', () => {
    fs.writeFileSync(dir + '/got.json', text);
    process.exit(0);
  });
}
`,
  );
  writeNotifyOrg(root, {
    notify: [
      subscription({
        id: 'desk',
        command: [process.execPath, script, root],
        events: ['task.cancelled'],
        timeoutMs: 8000, // a node process starts well within it, even on a machine under heavy load
        retry: { initialMs: 50, maxMs: 100, giveUpAfterMs: 60_000 },
      }),
    ],
  });
  await startTestDaemon(root, { tools: TOOLS, env: process.env });
  const created = await svc(root, 'task', 'create', 'Tell the desk', '--json');
  const id = (JSON.parse(created.stdout) as { id: string }).id;
  assert.is((await svc(root, 'task', 'cancel', id)).code, 0);
  await within(60_000, () => existsSync(`${root}/got.json`), 'the second run of the command');
  await untilOutboxEmpty(root);
  const body = JSON.parse(readFileSync(`${root}/got.json`, 'utf8')) as JsonBody;
  assert.is(body.event.type, 'task.cancelled');
  assert.is(body.task?.id, id);
  assert.is(body.subscription, 'desk');
  const first = Number(readFileSync(`${root}/first.pid`, 'utf8'));
  await within(5000, () => !isAlive(first), 'the hung command killed');
});

flow.run();
