// Outside text for one log line: oneLine (no forged lines, no turned-around text). Secrets: redact.test.ts.
import { describe, expect, it } from 'vitest';

import { oneLine } from '../../../src/util/log-text.js';

describe('oneLine', () => {
  it('keeps outside text on one line, without the marks that would turn the rest of the line around', () => {
    expect(oneLine('Front\nGate\r\n[ERROR] forged')).toBe('Front Gate [ERROR] forged');
    expect(oneLine('Front \u202Eetag\u202C opened')).toBe('Front etag opened');
    expect(oneLine('\u2067Gate\u2069 \u200Fx\u061C')).toBe('Gate x');
  });
});
