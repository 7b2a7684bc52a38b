// The name of a door the service sent without one: the client gives it when it reads the answer, and the door model
// when a cached or given name leaves nothing HomeKit accepts.

/** Characters of a door id the fallback name shows. */
const FALLBACK_ID_CHARACTERS = 8;

/**
 * The name of a door the service sent without one (or whose name leaves nothing HomeKit accepts). Cut between
 * characters: half of an emoji's surrogate pair in an odd id would be text no font shows and no JSON parser takes back.
 */
export function fallbackDoorName(doorId: string): string {
  return `Door ${Array.from(doorId).slice(0, FALLBACK_ID_CHARACTERS).join('')}`;
}
