/** Colours of the command line output: statuses and priorities, or plain text when off. */
export interface Paint {
  /** True when the output is coloured. */
  enabled: boolean;
  /** `text` (default the status itself) in the colour of a status. */
  status(status: string, text?: string): string;
  /** `text` (default the priority itself) in the colour of a priority; normal stays plain. */
  priority(priority: string, text?: string): string;
  dim(text: string): string;
  bold(text: string): string;
}

/** The colours, or plain text when `enabled` is false (not a terminal, or `NO_COLOR` set). */
export function createPaint({ enabled }: { enabled: boolean }): Paint {
  const wrap = (codes: string | undefined, text: string) =>
    enabled && codes ? `\u001b[${codes}m${text}\u001b[0m` : text;
  return {
    enabled,
    status: (status, text = status) => wrap(STATUS_CODES[status], text),
    priority: (priority, text = priority) => wrap(PRIORITY_CODES[priority], text),
    dim: (text) => wrap('2', text),
    bold: (text) => wrap('1', text),
  };
}

/** Whether a stream gets colour: a terminal that has colours, and `NO_COLOR` not set (https://no-color.org). */
export function wantsColor(
  stream: { isTTY?: boolean; hasColors?: () => boolean },
  env: Record<string, string | undefined>,
): boolean {
  if (env.NO_COLOR) return false;
  return stream.isTTY === true && (stream.hasColors?.() ?? true);
}

/** The text without colour codes (for widths and tests). */
export function stripColor(text: string): string {
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}

// --- internal ---

const STATUS_CODES: Record<string, string> = {
  backlog: '90',
  ready: '36',
  'in-progress': '33',
  blocked: '35',
  done: '32',
  deadletter: '31',
  cancelled: '90',
};

const PRIORITY_CODES: Record<string, string> = { critical: '1;31', high: '33', low: '2' };
