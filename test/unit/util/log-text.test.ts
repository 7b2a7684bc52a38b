// Outside text for one log line: oneLine (no forged lines, no turned-around text) and withoutSecrets, the one function that keeps the token and the webhook key out of the service's text.
import { describe, expect, it } from 'vitest';

import { oneLine, withoutSecrets, withoutSecretsIn } from '../../../src/util/log-text.js';

const TOKEN = 'tok.en+9f3(a)';
const KEY = 'ab12'.repeat(24);

describe('oneLine', () => {
  it('keeps outside text on one line, without the marks that would turn the rest of the line around', () => {
    expect(oneLine('Front\nGate\r\n[ERROR] forged')).toBe('Front Gate [ERROR] forged');
    expect(oneLine('Front \u202Eetag\u202C opened')).toBe('Front etag opened');
    expect(oneLine('\u2067Gate\u2069 \u200Fx\u061C')).toBe('Gate x');
  });
});

describe('withoutSecrets', () => {
  it('writes every secret as [redacted], wherever it stands and in any case', () => {
    expect(withoutSecrets(`Malformed Request for Bearer ${TOKEN} (400)`, [TOKEN, KEY])).toBe(
      'Malformed Request for Bearer [redacted] (400)',
    );
    expect(withoutSecrets(`${KEY.toUpperCase()}/${KEY}-${TOKEN}${TOKEN}`, [TOKEN, KEY])).toBe('[redacted]/[redacted]-[redacted][redacted]');
  });

  it('reads a secret literally, not as a pattern', () => {
    expect(withoutSecrets('tokXen+9f3(a)', [TOKEN])).toBe('tokXen+9f3(a)');
  });

  it('leaves text without a secret as it is, and skips secrets that are not set', () => {
    expect(withoutSecrets('Front Gate', [TOKEN, undefined, '', 42])).toBe('Front Gate');
  });

  it('hides a short secret only when it is the whole text: inside, it is a common word', () => {
    expect(withoutSecrets('gate', ['gate'])).toBe('[redacted]');
    expect(withoutSecrets('Front gate', ['gate'])).toBe('Front gate');
  });
});

describe('withoutSecretsIn, over a parsed answer', () => {
  it('cleans every string of objects and arrays, keys named __proto__ included, and leaves the rest', () => {
    const parsed = JSON.parse(
      JSON.stringify({ message: `Bearer ${TOKEN}`, doors: [{ name: `Gate ${KEY}`, state: 1 }, [TOKEN, null, true]] }).replace(
        '"state"',
        '"__proto__":"' + TOKEN + '","state"',
      ),
    ) as unknown;
    const clean = withoutSecretsIn(parsed, [TOKEN, KEY]);
    expect(JSON.stringify(clean)).not.toContain(TOKEN);
    expect(clean).toEqual(
      JSON.parse(
        '{"message":"Bearer [redacted]","doors":[{"name":"Gate [redacted]","__proto__":"[redacted]","state":1},["[redacted]",null,true]]}',
      ),
    );
    expect(withoutSecretsIn(TOKEN, [TOKEN])).toBe('[redacted]');
    expect(withoutSecretsIn(42, [TOKEN])).toBe(42);
  });

  it('walks an answer nested 100,000 deep without overflowing the stack', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}"${TOKEN}"${']'.repeat(100_000)}`) as unknown;
    let inner: unknown = withoutSecretsIn(deep, [TOKEN]);
    while (Array.isArray(inner)) inner = inner[0];
    expect(inner).toBe('[redacted]');
  });
});
