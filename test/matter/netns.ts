// Matter (mDNS, operational discovery) needs a network interface other than loopback: the Matter tests fail with that reason
// where there is none, rather than time out in commissioning or pass without having run.
import { networkInterfaces } from 'node:os';

/** Throws, saying why and what to do, when this process sees only loopback interfaces. */
export function requireNonLoopbackInterface(): void {
  const interfaces = networkInterfaces();
  const usable = Object.entries(interfaces).filter(([, addresses]) => addresses?.some((address) => !address.internal));
  if (usable.length === 0) {
    throw new Error(
      `Matter needs a network interface other than loopback, and this process sees only ${Object.keys(interfaces).join(', ') || 'none'}. ` +
        'Run the Matter tests with `npm run test:matter` (as root): test/matter/run.sh makes a private network namespace with a veth pair for them.',
    );
  }
}
