// The `doors` list: each door's own settings, found by its id. An entry without a usable id is dropped; otherwise only
// its bad settings are, and what protects a door (read-only above all) holds even where the entry cannot be read.
import * as z from '../util/zod.js';

import { OPTIONS, perDoor } from '../option-catalog.js';
import {
  consequenceOf,
  lockForUnnamed,
  mayProtect,
  merged,
  mostProtective,
  PROTECTIVE,
  protectionIn,
  protectiveReading,
} from './fail-closed.js';
import type { Findings } from './findings.js';
import { readKeys } from './keys.js';
import type { ReadKeys } from './keys.js';
import { secretRefusal } from './secret-values.js';
import { typedId } from './redacted.js';
import { mentionOf, speaksOfLeavingOut } from './mentions.js';
import { CHOICES, issuesOf, nearChoice, optionalText, requiredText, shapeOf } from './schemas.js';
import type { PerDoorShape } from './schemas.js';
import { addSpelling, idOf, idProblem, isBlank, isRecord, listing, unsafeIdNumber, withoutBlanks } from './values.js';
import { uncasedId } from '../util/canonical-id.js';

/** One door's own settings, found by its id (the serial number the Home app shows). Left out: as for all doors. */
export const doorSettingsSchema = z.object({
  id: requiredText('text'),
  name: z.optional(optionalText),
  ...(shapeOf(OPTIONS.filter(perDoor), false) as PerDoorShape),
});

export type DoorSettings = z.output<typeof doorSettingsSchema>;

/** The keys a door entry may hold. */
const DOOR_KEYS = ['id', 'name', ...OPTIONS.filter(perDoor).map((option) => option.key)];

/** What an unknown key of a door entry leaves its door with: what it meant cannot be told, so nothing it may have protected opens. */
function unknownKeyLeaves(key: string, value: unknown): string {
  return speaksOfLeavingOut(key) && mayProtect(value)
    ? 'this door is kept out of Home until it is fixed'
    : 'this door is read-only, without an automation switch, until it is fixed';
}

/** A door entry's keys as the plugin reads them (near misses as the key they nearly are): the page reads them too. */
export function readDoorKeys(entry: Record<string, unknown>): ReadKeys {
  return readKeys(entry, {
    known: DOOR_KEYS,
    notes: true,
    combine: mostProtective,
    narrowing: (key) => (PROTECTIVE as readonly string[]).includes(key),
    unknown: (key, value) => (isBlank(value) ? undefined : unknownKeyLeaves(key, value)),
  });
}

/**
 * An entry whose id is a number beyond 2^53 names one door of those whose id reads as that number: its protection is
 * kept for each of them (never for every door). Undefined: the entry protects nothing.
 */
function lockForNumber(number: number, entry: Record<string, unknown>, findings: Findings): string | undefined {
  const protection = protectionIn(entry);
  if (protection.length === 0) return undefined;
  findings.lockNumber('doorNumbers', number);
  return `as it sets ${listing(protection)}, a door whose id reads as the number ${String(number)} is read-only until it is fixed`;
}

/** "doors" written as one entry, not a list: only its protection is kept, for the door it names or, unnamed, for all. */
function readLoneDoor(value: unknown, findings: Findings): Record<string, unknown>[] {
  const problem = [{ path: ['doors'], message: 'must be a list of doors' }];
  const start = 'doors must be a list of door settings';
  const mention = mentionOf('doors', value, false);
  if (!isRecord(value)) {
    // JSON text, a number: a door it names stays read-only (protection.ts), the others use the settings for all doors.
    if (mention) findings.mentions.push(mention);
    findings.add(
      problem,
      `${start}; every door uses the settings for all doors, but a door of the account it names stays read-only until it is fixed`,
    );
    return [];
  }
  const keys = readKeys(value, { known: DOOR_KEYS, combine: mostProtective });
  for (const { key, sentence } of keys.sentences) findings.warn(['doors', key], `in doors, ${sentence}`);
  const entry = withoutBlanks(keys.block);
  const lead = `${start} ([{ "id": … }]), not one door's settings`;
  const id = idOf(entry.id);
  if (id !== undefined && typeof entry.id === 'string') addSpelling(findings.spellings, id, uncasedId(entry.id));
  if (id === undefined) {
    const number = unsafeIdNumber(entry.id);
    const locked = number === undefined ? lockForUnnamed(entry, findings) : lockForNumber(number, entry, findings);
    // An object keyed by door id ({ "<id>": { "readOnly": true } }): each door it names stays read-only.
    if (mention && locked === undefined) findings.mentions.push(mention);
    findings.add(
      problem,
      `${lead}; ${locked ?? 'it is ignored, so every door uses the settings for all doors, but a door of the account it names stays read-only until it is fixed'}`,
    );
    return [];
  }
  if (protectionIn(entry).length === 0) {
    findings.add(problem, `${lead}; it is ignored, so every door uses the settings for all doors`);
    return [];
  }
  const shownId = typedId(id);
  const door = shownId === undefined ? 'the door it names' : `door ${shownId}`;
  const state = entry.hide === true ? 'hidden' : 'read-only, without an automation switch,';
  findings.add(problem, `${lead}; only its protection is kept: ${door} is ${state} until it is fixed`);
  return [protectiveReading(id, entry)];
}

/**
 * Each door entry on its own: an entry without a usable id is dropped; otherwise only its bad settings are, so the
 * rest of what the user set for that door (read-only above all) still holds. A protective setting that cannot be read
 * fails closed: an unreadable readOnly or hide makes the door read-only, an unreadable switch gives it none, and an
 * entry that cannot be told from others keeps every door read-only.
 */
export function readDoors(value: unknown, findings: Findings): unknown {
  if (isBlank(value)) return undefined;
  if (!Array.isArray(value)) {
    return readLoneDoor(value, findings);
  }
  const doors: Record<string, unknown>[] = [];
  const firstIndex = new Map<string, number>();
  value.forEach((raw: unknown, index) => {
    const at = `doors.${index}`;
    if (isBlank(raw) || (isRecord(raw) && Object.keys(withoutBlanks(raw)).length === 0)) {
      return; // An entry the form opened and nobody filled in: nothing was meant.
    }
    if (!isRecord(raw)) {
      // An id alone ("doors": ["<id>"]), a list in a list: the door it names stays read-only (protection.ts).
      const mention = mentionOf(at, raw, false);
      if (mention) findings.mentions.push(mention);
      findings.add(
        [{ path: ['doors', index], message: "must be one door's settings" }],
        `${at} must be one door's settings ({ "id": … }); it is ignored, but a door of the account it names stays read-only until it is fixed`,
      );
      return;
    }
    const keys = readDoorKeys(raw);
    const entry = withoutBlanks(keys.block);
    // A secret is never a door's id or name (secret-values.ts): the id's entry names no door, the name is not used.
    const idSecret = findings.heldSecret(entry.id);
    if (idSecret !== undefined) {
      findings.add(
        [{ path: ['doors', index, 'id'], message: `holds the secret of ${idSecret}` }],
        secretRefusal(`${at}.id`, idSecret, 'this entry is ignored'),
      );
      return;
    }
    const nameSecret = findings.heldSecret(entry.name);
    if (nameSecret !== undefined) {
      findings.add(
        [{ path: ['doors', index, 'name'], message: `holds the secret of ${nameSecret}` }],
        secretRefusal(`${at}.name`, nameSecret, "the door shows the account's name for it"),
      );
      delete entry.name;
    }
    const writtenId = entry.id;
    const doorId = idOf(writtenId);
    if (doorId !== undefined) entry.id = doorId;
    if (doorId !== undefined && typeof writtenId === 'string') addSpelling(findings.spellings, doorId, uncasedId(writtenId));
    const id = typedId(writtenId);
    const named = id === undefined ? at : `${at} (id ${id})`;
    for (const { key, sentence } of keys.sentences) findings.warn(['doors', index, key], `${named}: ${sentence}`);
    findings.notes.push(...keys.notes.map((key) => `${at}.${key}`));
    for (const option of CHOICES) {
      if (perDoor(option) && option.key in entry) {
        entry[option.key] = nearChoice(option, entry[option.key], (s) => findings.warn(['doors', index, option.key], `${named}: ${s}`));
      }
    }
    const fieldIssues = Object.entries(doorSettingsSchema.shape).flatMap(([key, schema]) =>
      key === 'id' && writtenId !== undefined && doorId === undefined
        ? [{ path: ['doors', index, 'id'], message: idProblem(writtenId) }]
        : key in entry
          ? issuesOf(schema, entry[key], ['doors', index, key])
          : key === 'id'
            ? [{ path: ['doors', index, 'id'], message: 'is required' }]
            : [],
    );
    const said = (issues: typeof fieldIssues): string => listing(issues.map((i) => `${String(i.path[2])} ${i.message}`));
    if (doorId === undefined || fieldIssues.some((i) => i.path[2] === 'id')) {
      const number = unsafeIdNumber(writtenId);
      const locked = number === undefined ? lockForUnnamed(entry, findings) : lockForNumber(number, entry, findings);
      findings.add(fieldIssues, `${named} ${said(fieldIssues)}; this entry is ignored${locked === undefined ? '' : `, and ${locked}`}`);
      return;
    }
    if (fieldIssues.length > 0) {
      const bad = [...new Set(fieldIssues.map((i) => String(i.path[2])))];
      findings.add(fieldIssues, `${named} ${said(fieldIssues)}; ${consequenceOf(bad)}`);
      for (const key of bad) delete entry[key];
      // Same reason as the global readOnly: an entry meant to protect a door must not leave it openable (a hide that
      // cannot be read keeps the door shown, but read-only: it is never taken out of Home on a guess).
      if (bad.includes('readOnly') || bad.includes('hide')) entry.readOnly = true;
      // The switch that opens least, not the global one: the entry was there to set this door apart.
      if (bad.includes('automationSwitch')) entry.automationSwitch = 'off';
      // Not the kind for all doors either: the one Home shows now, so the door's automations stay.
      if (bad.includes('showAs')) findings.kept.showAsDoorIds.push(doorId);
    }
    // A key the plugin does not read may have protected this door: it is not left openable on a guess, and a door of the
    // account its value names is not either (protection.ts).
    for (const key of Object.keys(entry).filter((key) => !DOOR_KEYS.includes(key) && !keys.notes.includes(key))) {
      const value = entry[key];
      Object.assign(entry, protectiveReading(doorId, { hide: speaksOfLeavingOut(key) && mayProtect(value) }));
      const mention = mentionOf(`doors.${index}.${key}`, value, speaksOfLeavingOut(key));
      if (mention) findings.mentions.push(mention);
    }
    const first = firstIndex.get(doorId);
    if (first !== undefined) {
      findings.add(
        [{ path: ['doors', index, 'id'], message: `repeats doors.${first}` }],
        `${named} is a second entry for the same door as doors.${first}; they are merged: the more protective readOnly, hide and automationSwitch win, and doors.${first} comes first for the other settings`,
      );
      const slot = doors.findIndex((door) => door.id === doorId);
      doors[slot] = merged(doors[slot] ?? {}, entry);
      return;
    }
    firstIndex.set(doorId, index);
    doors.push(entry);
  });
  return doors;
}
