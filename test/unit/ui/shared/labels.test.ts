// The settings page's server names every field by the label the page shows, never by its config key.
import { describe, expect, it } from 'vitest';

import { checkBlock } from '../../../../src/ui/shared/check-config.js';
import { inPageWords, labelOf } from '../../../../src/ui/shared/labels.js';

/** A config key as the parser writes it: camelCase, or a dotted path. */
const CONFIG_KEY = /\b(accessToken|baseUrl|pollInterval|lowBatteryThreshold|automationSwitch|readOnly|webhook\.\w+|doors\.\d+|\w+Ids)\b/;

describe('labels, not keys', () => {
  it("maps the account's fields, the webhook's, the catalog's options and door entries to the page's labels", () => {
    expect(labelOf('accessToken')).toBe('Access token');
    expect(labelOf('baseUrl')).toBe('Service address');
    expect(labelOf('webhook.port')).toBe('Listener port');
    expect(labelOf('webhook.apiKey')).toBe('Webhook API key');
    expect(labelOf('pollInterval')).toBe('Poll interval');
    expect(labelOf('doors.0.readOnly')).toBe('Read-only of door entry 1');
    expect(labelOf('excludeDoorIds.2')).toBe('entry 3 of the doors left out');
    expect(labelOf('iPhone')).toBeUndefined();
  });

  it("words the parser's sentences with labels, leaving the rest of the sentence as the log says it", () => {
    expect(inPageWords('accessToken is required')).toBe('Access token is required');
    expect(inPageWords('webhook.port must be a port number and webhook.apiKey must be text; webhooks are off until it is fixed')).toBe(
      'Listener port must be a port number and Webhook API key must be text; webhooks are off until it is fixed',
    );
    expect(inPageWords('doors must be a list of doors')).toBe('The per-door settings must be a list of doors');
    // An English word that is also a key is left alone inside a sentence.
    expect(inPageWords('door "b" is read-only, and the name stays')).toBe('Door "b" is read-only, and the name stays');
  });

  it('the check of a block names no config key in its problems or in what it would ignore', () => {
    const fresh = checkBlock({ platform: 'AccessControl' }, undefined);
    expect(fresh.problems).toEqual(['Access token is required', 'Service address is required']);
    const messy = checkBlock(
      {
        accessToken: 't',
        baseUrl: 'https://api.example.com',
        pollInterval: 1,
        automationSwitch: 7,
        webhook: { enabled: true, port: 'x', apiKey: 'abc' },
        doors: [{ id: 'a', readOnly: 'y' }, { readOnly: true }],
        excludeDoorIds: [{}],
      },
      undefined,
    );
    expect(messy.ignored.length).toBeGreaterThanOrEqual(5);
    for (const line of messy.ignored) {
      expect(line).not.toMatch(CONFIG_KEY);
    }
  });
});
