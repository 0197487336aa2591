import { EVENT_TYPES } from '../core/events.js';
import { toDidYouMean } from '../core/suggest.js';
import { asRecord, recordsOf, type Problem } from './problems.js';

/** The critical report of the watchdog, which is no event of the log but can be subscribed to. */
export const WATCHDOG_CRITICAL = 'watchdog.critical';

/** The events a subscription may name: every event type of the log, and the watchdog's critical report. */
export const NOTIFY_EVENT_TYPES: readonly string[] = [...EVENT_TYPES, WATCHDOG_CRITICAL];

/** What the checks of `aof.notify` may look at beyond the chart. */
export interface NotifyCheckOptions {
  /**
   * The environment the daemon would run with (its own and `data/daemon.env`): a `secretEnv` missing from it is a
   * problem. Without it (the daemon loading its chart) secrets are not checked here but at each delivery.
   */
  env?: Readonly<Record<string, string | undefined>> | undefined;
}

/**
 * Problems of `aof.notify` the schema cannot see alone: an unknown event (with "did you mean"), a webhook that is not
 * an http(s) URL, both or neither of `webhook` and `command`, a duplicate id, a `secretEnv` that is not set (named,
 * its value never shown); and a watchdog `alerting.webhook` that is not an http(s) URL.
 */
export function checkNotify(data: unknown, options: NotifyCheckOptions = {}): Problem[] {
  const aof = asRecord(asRecord(data)?.aof);
  if (!aof) return [];
  const seen = new Map<string, number>();
  const problems: Problem[] = [];
  for (const [i, sub] of recordsOf(aof.notify)) {
    const path = `aof.notify[${i}]`;
    if (typeof sub.id === 'string') {
      const first = seen.get(sub.id);
      if (first === undefined) seen.set(sub.id, i);
      else
        problems.push({
          path: `${path}.id`,
          problem: `duplicate subscription id ${JSON.stringify(sub.id)} (first at aof.notify[${first}])`,
        });
    }
    problems.push(...checkTarget(path, sub), ...checkEvents(path, sub.events));
    if (options.env && typeof sub.secretEnv === 'string' && sub.secretEnv && !options.env[sub.secretEnv]) {
      problems.push({
        path: `${path}.secretEnv`,
        problem: `${sub.secretEnv} is not set in the daemon's environment nor in data/daemon.env`,
      });
    }
  }
  const alerting = asRecord(asRecord(asRecord(aof.daemon)?.watchdog)?.alerting);
  if (typeof alerting?.webhook === 'string') {
    const problem = urlProblem(alerting.webhook);
    if (problem) problems.push({ path: 'aof.daemon.watchdog.alerting.webhook', problem });
  }
  return problems;
}

/** Why a webhook URL cannot be used (not a URL, not http or https), or undefined when it can. */
export function urlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `must be an http or https URL such as https://hooks.example.com/svc (found ${JSON.stringify(value)})`;
  }
  if (url.protocol === 'http:' || url.protocol === 'https:') return undefined;
  return `must be an http or https URL (found a ${url.protocol.replace(/:$/, '')}: URL)`;
}

// --- internal ---

function checkTarget(path: string, sub: Record<string, unknown>): Problem[] {
  const hasWebhook = sub.webhook !== undefined;
  const hasCommand = sub.command !== undefined;
  if (hasWebhook && hasCommand) {
    return [{ path, problem: 'has both webhook and command: a subscription delivers to one of them' }];
  }
  if (!hasWebhook && !hasCommand) {
    return [{ path, problem: 'needs a webhook (an http or https URL) or a command (the program and its arguments)' }];
  }
  if (typeof sub.webhook !== 'string' || !sub.webhook) return [];
  const problem = urlProblem(sub.webhook);
  return problem ? [{ path: `${path}.webhook`, problem }] : [];
}

function checkEvents(path: string, events: unknown): Problem[] {
  if (!Array.isArray(events)) return [];
  return events.flatMap((event, j) => {
    if (typeof event !== 'string' || !event || NOTIFY_EVENT_TYPES.includes(event)) return [];
    return [
      {
        path: `${path}.events[${j}]`,
        problem:
          `unknown event ${JSON.stringify(event)}.${toDidYouMean(event, NOTIFY_EVENT_TYPES)} ` +
          '(the event types of docs/events.md, and watchdog.critical)',
      },
    ];
  });
}
