// Run by .ci/run beside `npm ci`, which waits on the disk more than it computes: installs into .cache what the tests would
// install later beside each other, when the two cores are taken (the e2e matrix's and Matter's Homebridge 2.4, the UI and
// Homebridge for the ui tests; the ui tests then add only the packed plugin). Only Node's own modules here: node_modules is
// being made. A failure is not CI's: each part installs what is missing itself, and says so if it cannot.
import { installUiAndHomebridge } from '../ui/ui-env.js';
import { installHomebridgePrefix } from './npm-prefix.js';

const started = Date.now();
// One after the other: Matter's part asks for Homebridge first, seconds after npm ci; the ui tests a minute later.
await installHomebridgePrefix();
const homebridgeS = Math.round((Date.now() - started) / 1000);
await installUiAndHomebridge();
console.log(
  `install-ahead: Homebridge in .cache in ${homebridgeS} s, the Homebridge UI with it in ${Math.round((Date.now() - started) / 1000) - homebridgeS} s`,
);
