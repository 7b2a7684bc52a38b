// The Homebridge log as the plugin writes to it: each line cleaned of the access token and the webhook key, in any
// spelling redact.ts knows, as it leaves. Made once, with the secrets, where the platform starts: no line needs to know them.
import type { Logging, LogLevel } from 'homebridge';
import { format } from 'node:util';

import { withoutSecrets } from './redact.js';
import type { Secrets } from './redact.js';

type Write = (message: string, ...parameters: unknown[]) => void;

/** The levels Logging has a method of its own for. */
const LEVELS = ['info', 'success', 'warn', 'error', 'debug'] as const;

/** `log`, every line of which goes out without `secrets`. */
export function redactingLog(log: Logging, secrets: Secrets): Logging {
  // Formatted here when it has parameters, so a secret passed as one is found too; then handed on as one '%s', so the
  // line is not formatted twice ("%%" would lose a sign).
  const cleaned =
    (write: Write): Write =>
    (message, ...parameters) => {
      if (parameters.length === 0) write(withoutSecrets(message, secrets));
      else write('%s', withoutSecrets(format(message, ...parameters), secrets));
    };
  const levels = Object.fromEntries(LEVELS.map((level) => [level, cleaned(log[level].bind(log))])) as Record<
    (typeof LEVELS)[number],
    Write
  >;
  return Object.assign(cleaned(log), levels, {
    prefix: log.prefix,
    log: (level: LogLevel, message: string, ...parameters: unknown[]) => {
      cleaned((text, ...rest) => {
        log.log(level, text, ...rest);
      })(message, ...parameters);
    },
  });
}
