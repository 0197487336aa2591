import { toTerminalText } from '../../core/text.js';
import type { NotifyStatus } from '../../net/protocol/status.js';

/**
 * The `Notifications:` line of `svc daemon status`, and one line per subscription a 410 disabled or whose last
 * attempts failed (a subscription that delivers says nothing more).
 */
export function formatNotifyLines(notify: NotifyStatus): string[] {
  const subs = notify.subscriptions;
  if (subs.length === 0) return [];
  const pending = subs.reduce((n, s) => n + s.pending, 0);
  const failed = subs.reduce((n, s) => n + s.failed, 0);
  const head =
    `Notifications: ${subs.length} subscription${subs.length === 1 ? '' : 's'}, ${pending} pending, ` +
    `${failed} failed`;
  const troubled = subs.filter((s) => s.disabled || (s.consecutiveFailures > 0 && s.lastOutcome !== 'delivered'));
  return [
    head,
    ...troubled.map((s) => {
      const id = toTerminalText(s.id);
      const error = s.lastError ? `: ${toTerminalText(s.lastError).slice(0, 160)}` : '';
      if (s.disabled)
        return (
          `  subscription ${id} DISABLED ` +
          '(the receiver answered 410 Gone; enabled again when the org chart changes)'
        );
      const attempts = `${s.consecutiveFailures} failed attempt${s.consecutiveFailures === 1 ? '' : 's'}`;
      return `  subscription ${id} FAILING (${attempts} in a row${error}); \`svc notify list\` shows what waits`;
    }),
  ];
}
