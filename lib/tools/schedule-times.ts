import * as z from 'zod';
import { assertFutureTime } from '../core/time/schedule.js';

/** The optional `notBefore` and `dueAt` params of the tools that create or edit tasks. */
export const scheduleTimeParams = {
  notBefore: z.iso
    .datetime({ offset: true })
    .optional()
    .describe('ISO-8601 time (in the future): the task is not dispatched before it.'),
  dueAt: z.iso
    .datetime({ offset: true })
    .optional()
    .describe('ISO-8601 time (in the future) the task is due by; past it, one OVERDUE alert.'),
};

/** `{notBefore?, dueAt?}` of a call, each checked to be in the future (a past time is a `validation_error`). */
export function toScheduleTimes(
  params: { notBefore?: string | undefined; dueAt?: string | undefined },
  now: Date,
): { notBefore?: string; dueAt?: string } {
  const out: { notBefore?: string; dueAt?: string } = {};
  if (params.notBefore !== undefined)
    out.notBefore = new Date(assertFutureTime(params.notBefore, now, { what: 'notBefore' })).toISOString();
  if (params.dueAt !== undefined)
    out.dueAt = new Date(assertFutureTime(params.dueAt, now, { what: 'dueAt' })).toISOString();
  return out;
}
