import { toTerminalText } from '../../core/text.js';
import type { OutboxEntry } from '../../notify/outbox.js';

/**
 * The outbox as a table: delivery id, subscription, event, task, attempts, and the next attempt (pending) or the last
 * error (failed, or pending after a failure). Every field read from a file is escaped for the terminal.
 */
export function formatOutbox(entries: readonly OutboxEntry[], options: { failed: boolean; now: Date }): string[] {
  if (entries.length === 0)
    return [
      options.failed ? 'No failed notifications in data/outbox/failed/.' : 'No notifications waiting in data/outbox/.',
    ];
  const rows = entries.map((entry) => toRow(entry, options));
  const head = [
    'DELIVERY',
    'SUBSCRIPTION',
    'EVENT',
    'TASK',
    'ATTEMPTS',
    options.failed ? 'LAST ERROR' : 'NEXT / LAST ERROR',
  ];
  const widths = head.slice(0, -1).map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i < widths.length ? cell.padEnd(widths[i]!) : cell))
      .join('  ')
      .trimEnd();
  return [line(head), ...rows.map(line), `${entries.length} ${options.failed ? 'failed' : 'pending'}`];
}

// --- internal ---

function toRow(entry: OutboxEntry, options: { failed: boolean; now: Date }): string[] {
  const { notification } = entry;
  const text = (value: unknown) => toTerminalText(String(value ?? '-'));
  const coalesced = notification.coalesced ? ` (+${Math.max(0, notification.coalesced.count - 1)})` : '';
  const error = entry.lastError ? toTerminalText(entry.lastError).slice(0, 120) : '';
  const next = options.failed
    ? error || '-'
    : `${toNext(entry.nextAttemptAt, options.now)}${error ? `; ${error}` : ''}`;
  return [
    text(notification.deliveryId),
    text(notification.subscription),
    `${text(notification.event?.type)}${coalesced}`,
    text(notification.task?.id ?? notification.event?.taskId),
    String(entry.attempts ?? 0),
    next,
  ];
}

function toNext(at: string | undefined, now: Date): string {
  const time = at ? Date.parse(at) : Number.NaN;
  if (Number.isNaN(time)) return 'now';
  const seconds = Math.round((time - now.getTime()) / 1000);
  return seconds <= 0 ? 'now' : `in ${seconds}s (${toTerminalText(at!)})`;
}
