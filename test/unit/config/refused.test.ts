// parseConfig: what can never work is refused, with the field named (issue 12.9).
import { describe, expect, it } from 'vitest';

import { parseConfig } from '../../../src/config/index.js';
import { configOf, ignoredOf, VALID_CONFIG, WEBHOOK_API_KEY } from '../../support/config-fixtures.js';

describe('parseConfig: what can never work is refused, with the field named (issue 12.9)', () => {
  it.each([
    ['https://api.example.com/?region=eu', 'baseUrl must not have a query (?…) or fragment (#…)'],
    ['https://api.example.com#top', 'baseUrl must not have a query (?…) or fragment (#…)'],
    ['https://api.example.com?', 'baseUrl must not have a query (?…) or fragment (#…)'],
    [
      'https://ada:hunter2@api.example.com',
      'baseUrl must not hold a user name or password (user:pass@); the access token goes in accessToken',
    ],
    ['https://hunter2@api.example.com', 'baseUrl must not hold a user name or password (user:pass@); the access token goes in accessToken'],
    ['https://api.example.com/oauth/v1/', 'baseUrl must end before /oauth/v1 (the plugin adds it)'],
  ])('refuses the address %s', (baseUrl, problem) => {
    const result = parseConfig({ ...VALID_CONFIG, baseUrl });
    expect(result).toEqual({ ok: false, problems: [problem] });
    expect(JSON.stringify(result)).not.toContain('hunter2');
  });

  it('keeps a path in the address', () => {
    expect(configOf({ baseUrl: 'https://example.com/access/' }).baseUrl).toBe('https://example.com/access');
  });

  it.each([
    ['a line break', 'tok-secret\n123'],
    ['a tab', 'tok-secret\t123'],
    ['a control character', 'tok-secret\u0001123'],
    ['a C1 control character', 'tok-secret\u0085123'],
    ['a curly quote', 'tok-secret\u2019123'],
    ['an emoji', 'tok-secret🔑123'],
  ])('refuses a token holding %s, which cannot go in an HTTP header, naming only the field', (_what, accessToken) => {
    const result = parseConfig({ ...VALID_CONFIG, accessToken });
    expect(result).toEqual({
      ok: false,
      problems: [
        'accessToken holds a character that cannot be sent in an HTTP header (a line break, a control character, or one outside Latin-1 such as a curly quote or an emoji); paste the token again',
      ],
    });
    expect(JSON.stringify(result)).not.toContain('tok-secret');
  });

  it('accepts a token of printable Latin-1 characters, spaces around it trimmed', () => {
    expect(configOf({ accessToken: '  tok-é_123.ABC~  ' }).accessToken).toBe('tok-é_123.ABC~');
  });

  it.each([
    [{ headerName: 'X Service Key' }, 'webhook.headerName must be an HTTP header name (letters, digits and - such as X-Service-API-Key)'],
    [{ headerName: 'X-Key:' }, 'webhook.headerName must be an HTTP header name (letters, digits and - such as X-Service-API-Key)'],
    [{ path: '/access control' }, 'webhook.path must start with / and hold no spaces, ? or # (such as /access-control)'],
    [{ path: '/hook?key=1' }, 'webhook.path must start with / and hold no spaces, ? or # (such as /access-control)'],
    [{ path: '/a/../b' }, 'webhook.path must start with / and hold no spaces, ? or # (such as /access-control)'],
    [{ path: 'hook' }, 'webhook.path must start with / and hold no spaces, ? or # (such as /access-control)'],
    [{ path: '/gäte' }, 'webhook.path must start with / and hold no spaces, ? or # (such as /access-control)'],
  ])('switches webhooks off for a setting no request can ever match: %j', (extra, problem) => {
    expect(ignoredOf({ webhook: { port: 8765, apiKey: WEBHOOK_API_KEY, ...extra } })).toEqual([
      `${problem}; webhooks are off until it is fixed`,
    ]);
  });

  it('accepts header names and paths a request can match', () => {
    const webhook = configOf({
      webhook: { port: 8765, apiKey: WEBHOOK_API_KEY, headerName: 'X_Api.Key', path: '/hooks/access-control~1' },
    }).webhook;
    expect(webhook).toMatchObject({ headerName: 'X_Api.Key', path: '/hooks/access-control~1' });
  });
});
