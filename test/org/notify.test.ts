import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { dumpYaml } from '../../lib/fs/frontmatter.js';
import { validateOrg } from '../../lib/org/org-chart.js';
import { svc } from '../helpers/cli.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

function chartWith(aof: Record<string, unknown>) {
  return { schemaVersion: 1, agents: [{ id: 'dev', name: 'Dev' }], aof };
}

function writeChart(root: string, aof: Record<string, unknown>): void {
  mkdirSync(join(root, 'org'), { recursive: true });
  writeFileSync(join(root, 'org', 'org-chart.yaml'), dumpYaml(chartWith(aof)));
}

function problemsOf(aof: Record<string, unknown>, env?: Record<string, string>): string {
  try {
    validateOrg(chartWith(aof), 'org-chart.yaml', env ? { env } : {});
    return '';
  } catch (err) {
    return (err as Error).message;
  }
}

const notify = suite('org aof.notify');
notify.after.each(cleanRoots);

notify('a subscription gets its defaults from the schema', () => {
  const org = validateOrg(
    chartWith({ notify: [{ id: 'ops', webhook: 'https://hooks.example.com/svc', events: ['task.deadletter'] }] }),
    'org-chart.yaml',
  );
  const [sub] = org.aof.notify;
  assert.is(sub!.format, 'json');
  assert.equal(sub!.retry, { initialMs: 2_000, maxMs: 3_600_000, giveUpAfterMs: 86_400_000 });
  assert.is(sub!.timeoutMs, 10_000);
  assert.is(sub!.coalesceMs, 60_000);
  assert.is(sub!.maxInFlight, 2);
});

notify('every problem of aof.notify at once: event, format, URL, target, duplicate id, watchdog webhook', () => {
  const message = problemsOf({
    daemon: { watchdog: { alerting: { webhook: 'ftp://example.com/x' } } },
    notify: [
      { id: 'a', webhook: 'https://hooks.example.com/svc', events: ['task.deadleter', 'nothing.at.all'] },
      { id: 'b', webhook: 'file:///etc/passwd', format: 'teams', events: ['gate.awaiting'] },
      { id: 'a', command: ['notify-send'], webhook: 'https://x.example', events: ['task.completed'] },
      { id: 'c', events: ['task.completed'] },
      { id: 'd', webhook: 'not a url', events: ['watchdog.critical'] },
    ],
  });
  assert.match(
    message,
    /aof\.notify\[0\]\.events\[0\]: unknown event "task\.deadleter"\. Did you mean "task\.deadletter"\?/,
  );
  assert.match(message, /aof\.notify\[0\]\.events\[1\]: unknown event "nothing\.at\.all"\. \(the event types/);
  assert.match(message, /aof\.notify\[1\]\.format: must be one of json, slack, discord, ntfy \(found "teams"\)/);
  assert.match(message, /aof\.notify\[1\]\.webhook: must be an http or https URL \(found a file: URL\)/);
  assert.match(message, /aof\.notify\[2\]\.id: duplicate subscription id "a" \(first at aof\.notify\[0\]\)/);
  assert.match(message, /aof\.notify\[2\]: has both webhook and command/);
  assert.match(message, /aof\.notify\[3\]: needs a webhook .* or a command/);
  assert.match(message, /aof\.notify\[4\]\.webhook: must be an http or https URL such as/);
  assert.match(message, /aof\.daemon\.watchdog\.alerting\.webhook: must be an http or https URL \(found a ftp: URL\)/);
});

notify('a secretEnv is checked against the environment given, named and never shown', () => {
  const aof = {
    notify: [{ id: 'ops', webhook: 'https://h.example/svc', secretEnv: 'HOOK_SECRET', events: ['task.completed'] }],
  };
  assert.is(problemsOf(aof), '');
  assert.match(problemsOf(aof, {}), /aof\.notify\[0\]\.secretEnv: HOOK_SECRET is not set in the daemon's environment/);
  assert.is(problemsOf(aof, { HOOK_SECRET: 'sesame' }), '');
});

notify('svc org validate refuses a secretEnv set nowhere, and accepts it from data/daemon.env', async () => {
  const root = tempRoot();
  writeChart(root, {
    notify: [{ id: 'ops', webhook: 'https://h.example/svc', secretEnv: 'HOOK_SECRET', events: ['task.completed'] }],
  });
  const refused = await svc(root, 'org', 'validate');
  assert.is(refused.code, 1, refused.stdout);
  assert.match(refused.stderr, /secretEnv: HOOK_SECRET is not set/);
  mkdirSync(join(root, 'data'), { recursive: true });
  writeFileSync(join(root, 'data', 'daemon.env'), 'HOOK_SECRET=very-secret-value\n');
  const accepted = await svc(root, 'org', 'validate');
  assert.is(accepted.code, 0, accepted.stderr);
  assert.not.match(accepted.stdout + accepted.stderr, /very-secret-value/);
});

notify.run();
