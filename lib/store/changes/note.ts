import { SvcError } from '../../core/errors.js';
import { assertTaskText } from '../../core/task.js';
import type { CommitResult } from '../commit/protocol.js';
import { assertSession, type Caller } from './lease.js';
import type { Store } from '../commit/store.js';

/** Longest note text, in characters (a note is one entry, not a document). */
export const MAX_NOTE_LENGTH = 4000;

/** The heading notes are kept under. */
export const NOTES_HEADING = '## Notes';

/**
 * Appends one timestamped note (`- 2026-11-25T10:00Z operator: text`) under the body's `## Notes`
 * heading (added when missing), under the task's lock: notes of several writers all land, none
 * replaces another. Fenced like every write: a named session must be the current lease
 * (`stale_session`); a note changes no status and replaces nothing, so a live lease does not
 * refuse it (docs/command-line.md, "Lease rules").
 */
export async function noteTask(store: Store, arg: string, input: Caller & { text: string }): Promise<CommitResult> {
  const text = toNoteText(input.text);
  return store.commit(
    arg,
    (current) => {
      assertSession(current, input.sessionId);
      const body = appendNote(current.body, toNoteEntry(store.clock(), input.actor, text));
      assertTaskText(undefined, body);
      return {
        task: current.task,
        body,
        status: current.status,
        events: [
          {
            type: 'task.updated',
            taskId: current.task.id,
            actor: input.actor,
            payload: { fields: ['body'], note: text },
          },
        ],
      };
    },
    input.actor,
  );
}

/**
 * A note's text as one list entry: trimmed, CRLF as LF, later lines indented under the dash; control characters
 * refused.
 */
export function toNoteText(raw: string): string {
  const text = raw.replace(/\r\n?/g, '\n').replace(/\t/g, '  ').trim();
  if (!text)
    throw new SvcError(
      'validation_error',
      'The note is empty.',
      'Say what to note, e.g. svc task note 007 "asked the API team for keys".',
    );
  if (text.length > MAX_NOTE_LENGTH)
    throw new SvcError(
      'too_large',
      `The note has ${text.length} characters; the limit is ${MAX_NOTE_LENGTH}.`,
      'Keep a note short; put long material in the body (svc task update --body) or in a file it links to.',
    );
  const bad = CONTROL.exec(text);
  if (bad) {
    const code = `\\u${bad[0].charCodeAt(0).toString(16).padStart(4, '0')}`;
    throw new SvcError(
      'validation_error',
      `The note contains the control character ${code} at offset ` +
        `${bad.index}: a note is plain text (newlines and tabs allowed).`,
      'Remove the control characters (escape sequences, NUL, ...) from the note.',
    );
  }
  return text
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n  ');
}

/** `- <minute, UTC> <actor>: <text>`. */
export function toNoteEntry(now: Date, actor: string, text: string): string {
  return `- ${now.toISOString().slice(0, 16)}Z ${actor.replace(/\s+/g, ' ')}: ${text}`;
}

/**
 * The body with `entry` appended at the end of its `## Notes` section (outside code fences), or a new section at the
 * end.
 */
export function appendNote(body: string, entry: string): string {
  const lines = body.replace(/\s+$/, '').split('\n');
  const heading = findNotesHeading(lines);
  if (heading < 0) return `${lines.join('\n')}${lines.join('').trim() ? '\n\n' : ''}${NOTES_HEADING}\n\n${entry}\n`;
  let next = lines.length;
  for (let i = heading + 1, fenced = false; i < lines.length; i++) {
    if (/^\s{0,3}(```|~~~)/.test(lines[i]!)) fenced = !fenced;
    else if (!fenced && /^#{1,2}\s/.test(lines[i]!)) {
      next = i;
      break;
    }
  }
  let end = next;
  while (end > heading + 1 && !lines[end - 1]!.trim()) end--;
  const before = lines.slice(0, end);
  const after = lines.slice(next);
  const gap = end === heading + 1 ? [''] : [];
  return `${[...before, ...gap, entry, ...(after.length ? ['', ...after] : [])].join('\n')}\n`;
}

// --- internal ---

/** C0 but newline, DEL, C1, bidirectional overrides and isolates, line and paragraph separators. */
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

function findNotesHeading(lines: readonly string[]): number {
  let fenced = false;
  for (let i = 0; i < lines.length; i++) {
    if (/^\s{0,3}(```|~~~)/.test(lines[i]!)) fenced = !fenced;
    else if (!fenced && /^##\s+Notes\s*$/i.test(lines[i]!)) return i;
  }
  return -1;
}
