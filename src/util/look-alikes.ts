// Unicode's look-alike letters loaded into the redaction once, at the first text from outside: its data costs more memory
// than start-up may (src/util/skeleton.ts), and no secret can arrive before a request is answered or a webhook received.
import { useLookAlikes } from './redact.js';

let loading: Promise<void> | undefined;

/** Resolves once the redaction compares look-alike letters as one; if the data cannot be loaded, it goes on without. */
export function lookAlikesLoaded(): Promise<void> {
  loading ??= import('./skeleton.js').then(
    ({ lookAlikeOf }) => useLookAlikes(lookAlikeOf),
    () => undefined,
  );
  return loading;
}
