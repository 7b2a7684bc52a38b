// parseSync and parseHistory: what the log says about a part of the account it cannot read reads as zod's English messages.
import { describe, expect, it } from 'vitest';

import { parseHistory, parseSync } from '../../../src/client/schemas.js';

describe('parseSync', () => {
  it('names the unreadable device or door and what is wrong with it in plain English, and keeps the rest', () => {
    const account = parseSync({
      devices: [
        { id: 'device-1', doors: [{ id: 'door-1' }, { id: true }] },
        { id: 'device-2', doors: 'none' },
      ],
    });
    expect(account).toEqual({
      devices: [expect.objectContaining({ id: 'device-1', doors: [expect.objectContaining({ id: 'door-1' })] })],
      unreadable: ['devices.0.doors.1.id: must be an id (text)', 'devices.1.doors: Invalid input: expected array, received string'],
    });
  });

  it('returns the error of an answer without a device list, with its English message', () => {
    const account = parseSync({ device: [] });
    expect(account instanceof Error && account.issues[0]?.message).toBe('Invalid input: expected array, received undefined');
  });
});

describe('parseHistory', () => {
  it('returns the error of an answer without events, with its English message', () => {
    const events = parseHistory({ data: { toggle_events: {} } });
    expect(events instanceof Error && events.issues[0]?.message).toBe('Invalid input: expected array, received object');
  });
});
