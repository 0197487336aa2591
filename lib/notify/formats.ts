import type { NotifyFormat } from '../org/schema.js';
import type { Notification } from './notification.js';

/** The version of svc's own `json` payload; a change that is not only an addition raises it. */
export const PAYLOAD_VERSION = 1;

/** A request's body and where it goes: the subscription's URL, or another the format's service documents. */
export interface FormattedRequest {
  url: string;
  body: string;
  contentType: string;
}

/**
 * The request of a notification in a subscription's format (docs/notifications.md, "Formats"): svc's own `json`, a
 * Slack or Discord incoming webhook's message, or an ntfy message published as JSON to the topic's server.
 */
export function formatRequest(n: Notification, options: { format: NotifyFormat; url: string }): FormattedRequest {
  const json = (value: unknown, url = options.url) => ({
    url,
    body: JSON.stringify(value),
    contentType: 'application/json',
  });
  switch (options.format) {
    case 'slack':
      return json(toSlack(n));
    case 'discord':
      return json(toDiscord(n));
    case 'ntfy':
      return toNtfy(n, options.url);
    default:
      return json(toJsonPayload(n));
  }
}

/** svc's own payload: the notification with its version (docs/notifications.md, "What a notification says"). */
export function toJsonPayload(n: Notification): Record<string, unknown> {
  return { version: PAYLOAD_VERSION, ...n };
}

/** A short title: what happened, to which task. */
export function toTitle(n: Notification): string {
  const what = TITLES[n.event.type] ?? n.event.type;
  const count = n.coalesced ? ` (${n.coalesced.count})` : '';
  const task = n.task && !n.coalesced ? `: ${n.task.id} "${n.task.title}"` : '';
  return `svc ${what}${count}${task}`;
}

/** The text lines of a message: why, what to do, the task's facts, the board's page. */
export function toLines(n: Notification): string[] {
  const t = n.task;
  return [
    n.why,
    ...(n.action ? [`Action: ${n.action}`] : []),
    ...(t && !n.coalesced
      ? [
          `Status: ${t.status}, priority: ${t.priority}, project: ${t.project}` +
            `${t.agent ? `, agent: ${t.agent}` : ''}${t.team ? `, team: ${t.team}` : ''}`,
        ]
      : []),
    ...(n.boardUrl ? [`Board: ${n.boardUrl}`] : []),
  ];
}

// --- internal ---

const TITLES: Record<string, string> = {
  'task.deadletter': 'DEADLETTER',
  'sla.violation': 'SLA VIOLATION',
  'gate.awaiting': 'APPROVAL NEEDED',
  'budget.exceeded': 'BUDGET',
  'watchdog.critical': 'WATCHDOG CRITICAL',
  'task.completed': 'task completed',
  'task.blocked': 'task blocked',
};

/** Slack's mrkdwn escapes: `&`, `<` and `>` (a title could otherwise mention a channel or forge a link). */
function slackText(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

function toSlack(n: Notification): Record<string, unknown> {
  const title = slackText(toTitle(n));
  const lines = toLines(n).map(slackText);
  return {
    text: `${title}\n${lines.join('\n')}`,
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: toTitle(n).slice(0, 150) } },
      { type: 'section', text: { type: 'mrkdwn', text: lines.join('\n').slice(0, 3000) } },
    ],
  };
}

function toDiscord(n: Notification): Record<string, unknown> {
  return {
    content: toTitle(n).slice(0, 2000),
    embeds: [
      {
        title: toTitle(n).slice(0, 256),
        description: toLines(n).join('\n').slice(0, 4096),
        ...(n.boardUrl ? { url: n.boardUrl } : {}),
        timestamp: n.event.at,
      },
    ],
    // a title naming @everyone or a role must not ping anyone
    allowed_mentions: { parse: [] },
  };
}

/** ntfy's JSON publishing: POST to the server's root with the topic (the URL's last segment) in the body. */
function toNtfy(n: Notification, topicUrl: string): FormattedRequest {
  const url = new URL(topicUrl);
  const segments = url.pathname.split('/').filter(Boolean);
  const topic = decodeURIComponent(segments.pop() ?? '');
  url.pathname = `/${segments.join('/')}`;
  url.search = '';
  const body = {
    topic,
    title: toTitle(n),
    message: toLines(n).join('\n'),
    priority: PRIORITY[n.event.type] ?? 3,
    tags: [n.event.type === 'task.completed' ? 'white_check_mark' : 'warning', n.event.type],
    ...(n.boardUrl ? { click: n.boardUrl } : {}),
  };
  return { url: url.toString(), body: JSON.stringify(body), contentType: 'application/json' };
}

/** ntfy's priorities: 1 min, 3 default, 5 max. */
const PRIORITY: Record<string, number> = {
  'task.deadletter': 4,
  'sla.violation': 4,
  'gate.awaiting': 4,
  'budget.exceeded': 4,
  'watchdog.critical': 5,
  'task.completed': 2,
};
