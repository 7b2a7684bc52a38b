// Makes a door's name acceptable to HomeKit, which rejects names with symbols or that start or end with punctuation.
import { oneLine } from '../util/log-text.js';

const DISALLOWED = /[^\p{L}\p{N} '.,-]+/gu;
// The Home app also refuses a name that ends in an apostrophe (HAP-NodeJS 2.x's checkName warns about it): none at either end.
const EDGE_PUNCTUATION = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu;
/** HomeKit shows long names cut anyway; a bound keeps a hostile name from bloating the accessory cache. */
const MAX_NAME_LENGTH = 64;

export function homeKitName(name: string, fallback: string): string {
  const clean = name.replace(DISALLOWED, ' ').replace(/\s+/g, ' ').replace(EDGE_PUNCTUATION, '').slice(0, MAX_NAME_LENGTH).trim();
  return clean.length > 0 ? clean : fallback;
}

/** HomeKit's longest serial number: HAP-NodeJS warns about a longer one, quoting it whole into the log. */
const MAX_SERIAL_LENGTH = 64;

/** The door id as HomeKit's serial number: the id itself for any the service really sends, a clean cut of a hostile one. */
export function homeKitSerial(id: string): string {
  return oneLine(id, MAX_SERIAL_LENGTH) || '-';
}

/** HomeKit wants FirmwareRevision as x[.y[.z]]; anything else is left out rather than shown wrong. */
export function homeKitVersion(version: string | undefined): string | undefined {
  return version?.match(/\d+(\.\d+){0,2}/)?.[0];
}
