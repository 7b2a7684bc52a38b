// The settings server's handlers answer whatever happens, and what one threw is said without the secrets of its request.
import { describe, expect, it } from 'vitest';

import { answer, secretsIn } from '../../../../src/ui/server/requests.js';
import { echoedSpellings, secretLeaks } from '../../../support/secret-leaks.js';

const TOKEN = 'requests+token/5c8e1a=';

describe('answer', () => {
  it.each(Object.entries(echoedSpellings(TOKEN)))('says what a handler threw, without the token it quoted %s', async (_, spelling) => {
    const failed = (message: string) => ({ ok: false, message });
    const said = await answer(
      () => {
        throw new TypeError(`cannot read Bearer ${spelling}`);
      },
      failed,
      secretsIn({ baseUrl: 'https://api.example.com', accessToken: TOKEN }),
    );
    expect(said).toEqual({ ok: false, message: 'The settings server could not answer: cannot read Bearer [redacted].' });
    expect(secretLeaks(said.message, TOKEN)).toEqual([]);
  });

  it("passes a handler's answer through, and a request's secrets are its token and its key", async () => {
    expect(
      await answer(
        () => ({ ok: true }),
        () => ({ ok: false }),
        [],
      ),
    ).toEqual({ ok: true });
    expect(secretsIn({ accessToken: 't', apiKey: 'k', baseUrl: 'b' })).toEqual(['t', 'k']);
    expect(secretsIn('x')).toEqual([]);
  });
});
