// The door's extras, one row per option the catalog marks `extra` (src/option-catalog.ts), in the catalog's order.
// Written by `npm run generate` (dev/generate/extras-table.ts): a catalog extra without its file here does not compile.
import { accessAlert } from './access-alert.js';
import { automationSwitch } from './automation-switch.js';
import { contactSensor } from './contact-sensor.js';
import { eveHistory } from './eve-history.js';
import type { ExtraTable } from './extra.js';
import { leftOpenSensor } from './left-open-sensor.js';

export const EXTRAS: ExtraTable = {
  automationSwitch,
  leftOpenSensor,
  contactSensor,
  accessAlert,
  eveHistory,
};
