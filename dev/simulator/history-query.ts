// Validates toggle-history query parameters with zod and turns them into a history filter.
import { z } from 'zod';
import { isValidDay } from './dates.js';
import type { HistoryFilter } from './types.js';

const daySchema = z.string().refine(isValidDay, 'must be a date YYYY-MM-DD');

const historyQuerySchema = z
  .object({
    history_type: z.enum(['door', 'device', 'user']),
    door_id: z.string().min(1).optional(),
    device_id: z.string().min(1).optional(),
    start_date: daySchema.optional(),
    end_date: daySchema.optional(),
  })
  .superRefine((query, ctx) => {
    if (query.history_type === 'door' && query.door_id === undefined) {
      ctx.addIssue({ code: 'custom', path: ['door_id'], message: 'is required when history_type is door' });
    }
    if (query.history_type === 'device' && query.device_id === undefined) {
      ctx.addIssue({ code: 'custom', path: ['device_id'], message: 'is required when history_type is device' });
    }
    if (query.start_date !== undefined && query.end_date !== undefined && query.start_date > query.end_date) {
      ctx.addIssue({ code: 'custom', path: ['start_date'], message: 'must not be after end_date' });
    }
  });

export type HistoryQueryResult = { ok: true; filter: HistoryFilter } | { ok: false; message: string };

export function parseHistoryQuery(query: URLSearchParams): HistoryQueryResult {
  const parsed = historyQuerySchema.safeParse(Object.fromEntries(query));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = issue?.path.join('.') || 'query';
    return { ok: false, message: `Invalid parameter ${name}: ${issue?.message ?? 'invalid'}` };
  }
  const { history_type: type, door_id: doorId, device_id: deviceId, start_date: startDay, end_date: endDay } = parsed.data;
  // Only the id that matches the history type narrows the result; 'user' means the whole account.
  return {
    ok: true,
    filter: {
      ...(type === 'door' ? { doorId } : {}),
      ...(type === 'device' ? { deviceId } : {}),
      ...(startDay === undefined ? {} : { startDay }),
      ...(endDay === undefined ? {} : { endDay }),
    },
  };
}
