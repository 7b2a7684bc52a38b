// Config parsing: defaults, every bad field reported by path, no secret in any message, and config.schema.json kept in step.
import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { configSchema, parseConfig } from '../src/config.js';
import { PLATFORM_NAME } from '../src/settings.js';

const valid = { platform: PLATFORM_NAME, accessToken: 'tok-secret-123', baseUrl: 'https://api.example.com/' };

describe('parseConfig', () => {
  it('fills every default and trims the trailing slash of the address', () => {
    const result = parseConfig(valid);
    expect(result).toEqual({
      ok: true,
      config: expect.objectContaining({
        name: 'Access Control',
        baseUrl: 'https://api.example.com',
        pollInterval: 15,
        transitionTimeout: 60,
        lowBatteryThreshold: 20,
      }) as unknown,
    });
  });

  it.each([undefined, null, {}, { platform: PLATFORM_NAME }])('reports the required fields for %j without throwing', (raw) => {
    expect(parseConfig(raw)).toEqual({ ok: false, problems: ['accessToken is required', 'baseUrl is required'] });
  });

  it('reports every bad field by its path in one result', () => {
    const result = parseConfig({ ...valid, accessToken: 42, baseUrl: 'ftp://x', pollInterval: 2, lowBatteryThreshold: 101 });
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
    const apiKey = 'ab'.repeat(48);
    const on = parseConfig({ ...valid, webhook: { port: 8581, apiKey } });
    expect(on.ok && on.config.webhook).toMatchObject({ port: 8581, apiKey, headerName: 'X-Service-API-Key', reconcileInterval: 300 });
    for (const webhook of [{}, { headerName: 'X-Service-API-Key', reconcileInterval: 300 }, { enabled: false, port: 'oops' }]) {
      const off = parseConfig({ ...valid, webhook });
      expect(off.ok && off.config.webhook).toBeUndefined();
    }
  });

  it('reports a half-done webhook setup by path', () => {
    const result = parseConfig({ ...valid, webhook: { enabled: true, apiKey: 'short' } });
    expect(result).toEqual({
      ok: false,
      problems: ['webhook.port is required', 'webhook.apiKey must be the 96-character hexadecimal key the service issued'],
    });
    const tls = parseConfig({ ...valid, webhook: { port: 8581, apiKey: 'ab'.repeat(48), tlsCertFile: '/etc/cert.pem' } });
    expect(tls.ok ? [] : tls.problems).toEqual(['webhook.tlsKeyFile needs both tlsCertFile and tlsKeyFile, or neither']);
  });

  it('keeps keys Homebridge adds, such as _bridge', () => {
    const result = parseConfig({ ...valid, _bridge: { username: 'x' } });
    expect(result.ok && result.config['_bridge']).toEqual({ username: 'x' });
  });
});

describe('config.schema.json', () => {
  type JsonField = Record<string, unknown> & { properties?: Record<string, JsonField>; items?: JsonField };
  const form = JSON.parse(readFileSync(new URL('../config.schema.json', import.meta.url), 'utf8')) as {
    pluginAlias: string;
    pluginType: string;
    schema: { properties: Record<string, JsonField>; required: string[] };
  };
  const zodSchema = z.toJSONSchema(configSchema, { io: 'input' }) as {
    properties: Record<string, JsonField>;
    required: string[];
  };

  it('is a platform form registered under the platform name', () => {
    expect(form.pluginAlias).toBe(PLATFORM_NAME);
    expect(form.pluginType).toBe('platform');
    expect(form.schema.properties['name']).toBeDefined();
  });

  it('has exactly the fields, types, bounds, defaults and required list of the zod schema', () => {
    expect(Object.keys(form.schema.properties).sort()).toEqual(Object.keys(zodSchema.properties).sort());
    expect([...form.schema.required].sort()).toEqual([...zodSchema.required].sort());
    const compare = (zodFields: Record<string, JsonField>, formFields: Record<string, JsonField>, prefix: string): void => {
      expect(Object.keys(formFields).sort()).toEqual(Object.keys(zodFields).sort());
      for (const [key, field] of Object.entries(zodFields)) {
        const formField = formFields[key];
        for (const rule of ['type', 'default', 'minimum', 'maximum', 'minLength', 'pattern', 'enum']) {
          expect({ key: prefix + key, rule, value: formField?.[rule] }).toEqual({ key: prefix + key, rule, value: field[rule] });
        }
        if (field.properties) {
          compare(field.properties, formField?.properties ?? {}, `${prefix}${key}.`);
        }
        if (field.items?.properties) {
          compare(field.items.properties, formField?.items?.properties ?? {}, `${prefix}${key}[].`);
          expect(formField?.items?.['required']).toEqual(field.items['required']);
        }
      }
    };
    compare(zodSchema.properties, form.schema.properties, '');
  });

  it('shows the webhook fields only once webhooks are switched on', () => {
    const webhook = form.schema.properties['webhook']?.properties ?? {};
    for (const [key, field] of Object.entries(webhook)) {
      expect({ key, shownWhenOn: key === 'enabled' || field['condition'] !== undefined }).toEqual({ key, shownWhenOn: true });
    }
  });

  it('shows the token as a password', () => {
    expect(form.schema.properties['accessToken']?.['x-schema-form']).toEqual({ type: 'password' });
  });
});
