import { createHmac } from 'node:crypto';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startReceiver } from '../helpers/http-receiver.js';
import { cleanRoots, within } from '../helpers/root.js';
import { deadletter, eventOf, notifierOf, outboxFiles, subscription, taskOf } from './setup.js';

const formats = suite('notify formats');
formats.after.each(cleanRoots);

formats(
  'json: svc’s own payload, versioned, with the task (title escaped), why, the command, the board; signed',
  async () => {
    const receiver = await startReceiver();
    const sub = subscription({ id: 'ops', webhook: receiver.url, secretEnv: 'SVC_NOTIFY_SECRET' });
    const { notifier, paths } = notifierOf([sub], { boardUrl: (id) => `http://127.0.0.1:9/tasks/${id}` });
    notifier.start();
    try {
      const written = await notifier.offer(
        deadletter('T-1'),
        taskOf('T-1', { title: 'Fix \u001b[31mred\u0007 build' }),
      );
      assert.is(written, 1);
      const [req] = await receiver.waitFor(1);
      const body = req!.json as Record<string, any>;
      assert.is(body.version, 1);
      assert.is(body.subscription, 'ops');
      assert.is(body.event.type, 'task.deadletter');
      assert.is(body.event.taskId, 'T-1');
      assert.match(body.event.id, /^[0-9a-f]{32}$/);
      assert.is(body.task.title, 'Fix \\x1b[31mred\\x07 build');
      assert.is(body.task.project, 'demo');
      assert.match(body.why, /failed to run 3 times \(last: exit 1\)/);
      assert.is(body.action, 'svc task resurrect T-1');
      assert.is(body.boardUrl, 'http://127.0.0.1:9/tasks/T-1');
      assert.is(req!.headers['x-svc-delivery'], body.deliveryId);
      assert.is(req!.headers['x-svc-event'], 'task.deadletter');
      assert.is(req!.headers['x-svc-event-id'], body.event.id);
      const want = `sha256=${createHmac('sha256', 'sesame').update(req!.body).digest('hex')}`;
      assert.is(req!.headers['x-svc-signature'], want);
      await within(10_000, () => outboxFiles(paths).length === 0, 'the delivery removed from the outbox');
    } finally {
      await notifier.stop();
      await receiver.close();
    }
  },
);

formats('slack, discord and ntfy: the payloads their incoming webhooks take', async () => {
  const receiver = await startReceiver();
  const base = receiver.url.replace(/\/hook$/, '');
  const subs = [
    subscription({ id: 'slack', webhook: `${base}/slack`, format: 'slack' }),
    subscription({ id: 'discord', webhook: `${base}/discord`, format: 'discord' }),
    subscription({ id: 'ntfy', webhook: `${base}/ntfy/svc-alerts`, format: 'ntfy' }),
  ];
  const { notifier } = notifierOf(subs);
  notifier.start();
  try {
    const gate = eventOf('gate.awaiting', 'T-2', { workflow: 'review', gate: 'approve' });
    assert.is(await notifier.offer(gate, taskOf('T-2', { title: '<!channel> & @everyone', status: 'blocked' })), 3);
    const requests = await receiver.waitFor(3);
    const by = (path: string) => requests.find((r) => r.url === path)!.json as Record<string, any>;
    const slack = by('/slack');
    assert.match(slack.text, /APPROVAL NEEDED: T-2 "&lt;!channel&gt; &amp; @everyone"/);
    assert.match(slack.text, /Action: svc task approve T-2/);
    assert.is(slack.blocks[1].type, 'section');
    assert.is(slack.blocks[1].text.type, 'mrkdwn');
    const discord = by('/discord');
    assert.match(discord.content, /APPROVAL NEEDED/);
    assert.match(discord.embeds[0].description, /svc task approve T-2/);
    assert.equal(discord.allowed_mentions, { parse: [] });
    const ntfy = by('/ntfy');
    assert.is(ntfy.topic, 'svc-alerts');
    assert.match(ntfy.title, /APPROVAL NEEDED: T-2/);
    assert.match(ntfy.message, /svc task approve T-2/);
    assert.is(ntfy.priority, 4);
    assert.ok(Array.isArray(ntfy.tags));
  } finally {
    await notifier.stop();
    await receiver.close();
  }
});

formats('each event says why it matters and the command that acts on it', async () => {
  const receiver = await startReceiver();
  const sub = subscription({
    id: 'all',
    webhook: receiver.url,
    events: [
      'sla.violation',
      'budget.exceeded',
      'watchdog.critical',
      'task.completed',
      'task.blocked',
      'task.cancelled',
    ],
  });
  const { notifier } = notifierOf([sub]);
  notifier.start();
  try {
    await notifier.offer(
      eventOf('sla.violation', 'T-3', { duration: 7_200_000, limit: 3_600_000, agent: 'coder', timestamp: 1 }),
      taskOf('T-3'),
    );
    const budget = { scope: 'task', id: 'T-4', limit: 5, spent: 5.2, unit: 'usd' };
    await notifier.offer(eventOf('budget.exceeded', 'T-4', budget), taskOf('T-4'));
    await notifier.offer({
      timestamp: new Date().toISOString(),
      type: 'watchdog.critical',
      payload: { report: 'x', restarts: 3, maxRestarts: 3, windowMs: 3_600_000 },
    });
    await notifier.offer(eventOf('task.completed', 'T-5', { summary: 'shipped' }), taskOf('T-5'));
    await notifier.offer(eventOf('task.blocked', 'T-6', { reason: 'waits for\nthe API key' }), taskOf('T-6'));
    await notifier.offer(eventOf('task.cancelled', 'T-7', {}), taskOf('T-7'));
    const got = (await receiver.waitFor(6)).map((r) => r.json as Record<string, any>);
    const of = (type: string) => got.find((n) => n.event.type === type)!;
    assert.match(of('sla.violation').why, /in progress for 2 h \(limit 1 h\) with coder/);
    assert.is(of('sla.violation').action, 'svc task show T-3');
    assert.match(of('budget.exceeded').why, /Task T-4 spent \$5\.20 of \$5/);
    assert.is(of('budget.exceeded').action, 'svc task approve T-4 --budget-usd 10');
    assert.match(of('watchdog.critical').why, /restarted the svc daemon 3 times within 1 h/);
    assert.is(of('watchdog.critical').task, undefined);
    assert.is(of('task.completed').why, 'Task T-5 is done: shipped');
    assert.is(of('task.blocked').why, 'Task T-6 is blocked: waits for\\nthe API key.');
    assert.is(of('task.cancelled').why, 'task.cancelled on task T-7.');
  } finally {
    await notifier.stop();
    await receiver.close();
  }
});

formats.run();
