// parseConfig: defaults, every bad field reported by path, no secret in any message.
import { describe, expect, it } from 'vitest';

import { parseConfig } from '../../../src/config/index.js';
import { PLATFORM_NAME } from '../../../src/settings.js';
import { VALID_CONFIG, WEBHOOK_API_KEY } from '../../support/config-fixtures.js';

describe('parseConfig', () => {
  it('fills every default and trims the trailing slash of the address', () => {
    const result = parseConfig(VALID_CONFIG);
    expect(result).toEqual({
      ok: true,
      config: expect.objectContaining({
        name: 'Access Control',
        baseUrl: 'https://api.example.com',
        pollInterval: 15,
        transitionTimeout: 60,
        lowBatteryThreshold: 20,
      }) as unknown,
      ignored: [],
      warnings: [],
      findings: [],
    });
  });

  it.each([undefined, null, {}, { platform: PLATFORM_NAME }])('reports the required fields for %j without throwing', (raw) => {
    expect(parseConfig(raw)).toEqual({ ok: false, problems: ['accessToken is required', 'baseUrl is required'] });
  });

  it('reports every bad field by its path in one result', () => {
    const result = parseConfig({ ...VALID_CONFIG, accessToken: 42, baseUrl: 'ftp://x', pollInterval: 2, lowBatteryThreshold: 101 });
    expect(result.ok).toBe(false);
    const problems = result.ok ? [] : result.problems;
    expect(problems).toHaveLength(4);
    expect(problems[0]).toMatch(/^accessToken must be text/);
    expect(problems[1]).toMatch(/^baseUrl must be an http/);
    expect(problems[2]).toBe('pollInterval must be at least 5 seconds');
    expect(problems[3]).toBe('lowBatteryThreshold must be at most 100 percent');
  });

  it('never repeats a value in its messages', () => {
    const result = parseConfig({ accessToken: ['tok-secret-123'], baseUrl: 'tok-secret-123' });
    expect(JSON.stringify(result)).not.toContain('tok-secret-123');
  });

  it('turns the webhook listener on only for a filled-in block that is not switched off', () => {
    const on = parseConfig({ ...VALID_CONFIG, webhook: { port: 8581, apiKey: WEBHOOK_API_KEY } });
    expect(on.ok && on.config.webhook).toMatchObject({
      port: 8581,
      apiKey: WEBHOOK_API_KEY,
      headerName: 'X-Service-API-Key',
      reconcileInterval: 300,
    });
    for (const webhook of [{}, { headerName: 'X-Service-API-Key', reconcileInterval: 300 }, { enabled: false, port: 'oops' }]) {
      const off = parseConfig({ ...VALID_CONFIG, webhook });
      expect(off.ok && off.config.webhook).toBeUndefined();
    }
  });

  it('reports a half-done webhook setup by path, and only switches webhooks off', () => {
    // Deliberate change (issue 8 C): a bad webhook block no longer stops syncing; it is ignored with one sentence.
    const result = parseConfig({ ...VALID_CONFIG, webhook: { enabled: true, apiKey: 'short' } });
    expect(result).toEqual({
      ok: true,
      config: expect.objectContaining({ webhook: undefined }) as unknown,
      ignored: [
        'webhook.port is required and webhook.apiKey must be the 96-character hexadecimal key the service issued; webhooks are off until it is fixed',
      ],
      warnings: [],
      // Each finding says the setting it is about, for the settings page to place it.
      findings: [
        {
          path: 'webhook.port',
          sentence:
            'webhook.port is required and webhook.apiKey must be the 96-character hexadecimal key the service issued; webhooks are off until it is fixed',
        },
      ],
    });
    const tls = parseConfig({ ...VALID_CONFIG, webhook: { port: 8765, apiKey: 'ab'.repeat(48), tlsCertFile: '/etc/cert.pem' } });
    expect(tls.ok ? tls.ignored : tls.problems).toEqual([
      'webhook.tlsKeyFile needs both tlsCertFile and tlsKeyFile, or neither; webhooks are off until it is fixed',
    ]);
  });

  it('keeps keys Homebridge adds, such as _bridge', () => {
    const result = parseConfig({ ...VALID_CONFIG, _bridge: { username: 'x' } });
    expect(result.ok && result.config._bridge).toEqual({ username: 'x' });
  });
});
