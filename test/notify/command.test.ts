import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';
import { deadletter, notifierOf, outboxFiles, subscription, taskOf } from './setup.js';

const command = suite('notify command');
command.after.each(cleanRoots);

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

command('a command gets the notification as JSON on its stdin, and its delivery id in the environment', async () => {
  const dir = tempRoot('svc-cmd-');
  const out = join(dir, 'got.json');
  const script = `let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{require('fs').writeFileSync(${JSON.stringify(out)},JSON.stringify({s,id:process.env.SVC_DELIVERY_ID}))})`;
  const sub = subscription({ id: 'desk', command: [process.execPath, '-e', script] });
  const { notifier, paths, outcomes } = notifierOf([sub]);
  notifier.start();
  try {
    await notifier.offer(deadletter('T-1'), taskOf('T-1'));
    await within(10_000, () => outcomes.some((o) => o.outcome === 'delivered'), 'the command to exit 0');
    const got = JSON.parse(readFileSync(out, 'utf8')) as { s: string; id: string };
    const body = JSON.parse(got.s) as { version: number; deliveryId: string; action: string };
    assert.is(body.version, 1);
    assert.is(body.deliveryId, got.id);
    assert.is(body.action, 'svc task resurrect T-1');
    assert.equal(outboxFiles(paths), []);
  } finally {
    await notifier.stop();
  }
});

command('a command that hangs is killed with its process group at the timeout and retried', async () => {
  const dir = tempRoot('svc-cmd-');
  const marker = join(dir, 'first');
  const pids = join(dir, 'pids');
  const out = join(dir, 'got.json');
  // the first run starts a child and hangs; the next reads its stdin and exits 0
  const script = `const fs=require('fs');
if(!fs.existsSync(${JSON.stringify(marker)})){fs.writeFileSync(${JSON.stringify(marker)},'');
const c=require('child_process').spawn('sleep',['300'],{stdio:'ignore'});
fs.writeFileSync(${JSON.stringify(pids)},process.pid+' '+c.pid);setInterval(()=>{},1000)}
else{let s='';process.stdin.on('data',d=>s+=d).on('end',()=>fs.writeFileSync(${JSON.stringify(out)},s))}`;
  const sub = subscription({ id: 'desk', command: [process.execPath, '-e', script], timeoutMs: 3_000 });
  const { notifier, outcomes } = notifierOf([sub]);
  notifier.start();
  try {
    await notifier.offer(deadletter('T-1'), taskOf('T-1'));
    await within(15_000, () => outcomes.some((o) => o.outcome === 'delivered'), 'the second run');
    assert.equal(
      outcomes.map((o) => o.outcome),
      ['retrying', 'delivered'],
    );
    assert.match(outcomes[0]!.error!, /killed after 3000 ms/);
    const [leader, child] = readFileSync(pids, 'utf8').split(' ').map(Number);
    await within(5_000, () => !alive(leader!) && !alive(child!), 'the hung run and its child gone');
    assert.ok(existsSync(out));
    assert.is((JSON.parse(readFileSync(out, 'utf8')) as { event: { type: string } }).event.type, 'task.deadletter');
  } finally {
    await notifier.stop();
  }
});

command.run();
