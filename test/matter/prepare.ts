// Run by test/matter/run.sh before it enters the network namespace, where no registry is reachable: installs Homebridge 2.4
// into .cache (reused when there) the way the e2e matrix does, and prints its prefix.
import { HOMEBRIDGE_2_PREFIX } from '../../dev/harness/homebridge-process.js';
import { installHomebridgePrefix } from '../support/npm-prefix.js';

const prefix = await installHomebridgePrefix();
// npm-prefix.ts finds the repository two folders up from its own file: run.sh bundles this into .cache/matter/ so that holds.
if (prefix !== HOMEBRIDGE_2_PREFIX) {
  throw new Error(
    `Homebridge went to ${prefix}, not ${HOMEBRIDGE_2_PREFIX}: the bundle of prepare.ts must lie two folders below the repository`,
  );
}
console.log(prefix);
