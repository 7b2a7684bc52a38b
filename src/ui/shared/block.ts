// The settings page's edits of one platform block, as pure functions: each changes the one value it is for and keeps the rest as written.
import { parseConfig, readDoorKeys, readTopKeys, readWebhookKeys } from '../../config/index.js';
import type { ConfigResult, PluginConfig } from '../../config/index.js';
import type { ReadKeys } from '../../config/keys.js';
import { idOf, isBlank, isRecord, readIdList } from '../../config/values.js';
import { canonicalId } from '../../util/canonical-id.js';
import { controllerLetIn } from '../../config/door-options.js';
import { nearMiss } from '../../util/near-miss.js';
import { inDoorRow, OPTIONS } from '../../option-catalog.js';
import { defaultOf } from '../../option-values.js';
import type { ChoiceOption, FlagOption } from '../../option-catalog.js';
import type { KeyFix } from './messages.js';

/** One `platforms[]` entry of config.json, as the Homebridge UI hands it over. */
export type Block = Record<string, unknown>;
/** A per-door option: inherit the value set for all doors, or override it. */
export type Choice = 'inherit' | 'on' | 'off';
/** The on/off options a door can set for itself on this page (the catalog's flags offered in a door's row). */
export const DOOR_FLAGS = OPTIONS.flatMap((option) => (option.kind === 'flag' && inDoorRow(option) ? [option.key] : []));
export type DoorFlag = (typeof DOOR_FLAGS)[number];
export type IdList = 'includeDeviceIds' | 'excludeDeviceIds' | 'includeDoorIds' | 'excludeDoorIds';

const isEmpty = (value: unknown): boolean =>
  value === undefined ||
  value === null ||
  value === '' ||
  (Array.isArray(value) && value.length === 0) ||
  (isRecord(value) && Object.keys(value).length === 0);

/** A copy deep enough that the Homebridge UI's own object is never changed behind its back. */
const copy = (block: Block): Block => structuredClone(block);

/** Each block's reading by the plugin's parser, kept while the block is the same object (every edit makes a new one). */
const readings = new WeakMap<Block, ConfigResult>();

/** The plugin's parser on this block, once per block: the check and every control of a redraw read the same result. */
export function readingOf(block: Block): ConfigResult {
  const known = readings.get(block);
  if (known !== undefined) return known;
  const result = parseConfig(block);
  readings.set(block, result);
  return result;
}

/** The settings the plugin applies for this block (near misses read, unreadable protective values failed closed); undefined when it would not run. */
export function applied(block: Block): PluginConfig | undefined {
  const result = readingOf(block);
  return result.ok ? result.config : undefined;
}

/** A top-level value as the plugin applies it: its own reading when it runs, else the value under the key it is read as. */
export function appliedField(block: Block, key: string): unknown {
  const config = applied(block) as Record<string, unknown> | undefined;
  return config === undefined ? getField(block, key) : config[key];
}

/** A door's own settings as the plugin applies them (its entries merged, near misses read, unreadable protection failed closed). */
export function appliedDoorEntry(block: Block, doorId: string): Record<string, unknown> | undefined {
  const config = applied(block);
  if (config === undefined) return doorEntry(block, doorId);
  return config.doors.find((entry) => entry.id === canonicalId(doorId));
}

/**
 * How the plugin reads the keys of the record at `parents` ([] the block, ["webhook"] its listener, ["doors", i] a door
 * entry): each key written as a near miss ("readonly") read as the key it nearly is, so the page shows what applies.
 */
function keysAt(record: Record<string, unknown>, parents: readonly string[]): ReadKeys | undefined {
  if (parents.length === 0) return readTopKeys(record);
  if (parents.length === 1 && parents[0] === 'webhook') return readWebhookKeys(record);
  return undefined;
}

/** The value at `path` ("pollInterval", "webhook.port") as the plugin reads it: a key written as a near miss counts. */
export function getField(block: Block, path: string): unknown {
  let node: unknown = block;
  const parents: string[] = [];
  for (const key of path.split('.')) {
    if (!isRecord(node)) return undefined;
    node = (keysAt(node, parents)?.block ?? node)[key];
    parents.push(key);
  }
  return node;
}

/** The keys of `record` written as near misses of `key`, which an edit of that setting rewrites. */
function aliasesOf(record: Record<string, unknown>, parents: readonly string[], key: string): string[] {
  return keysAt(record, parents)?.aliases.get(key) ?? [];
}

/**
 * Sets `path` ("pollInterval", "webhook.port"); an empty value removes the field, and an emptied object goes with it.
 * The setting written as a near miss ("readonly") is rewritten under its key: it was that setting the user changed, and
 * two spellings would be read together. A block on the way that is written as something else ("webhook": "on") is
 * kept as written: the edit does nothing.
 */
export function setField(block: Block, path: string, value: unknown): Block {
  const next = copy(block);
  const keys = path.split('.');
  const last = keys.pop() ?? path;
  const parents: Record<string, unknown>[] = [next];
  const walked: string[] = [];
  let node: Record<string, unknown> = next;
  for (const key of keys) {
    // A block written under a near miss ("Webhook") is the one edited, under its spelling.
    const written = Object.hasOwn(node, key) ? key : (aliasesOf(node, walked, key)[0] ?? key);
    const child = node[written];
    if (!isRecord(child) && !isBlank(child)) return block;
    node = isRecord(child) ? child : (node[written] = {});
    parents.push(node);
    walked.push(key);
  }
  const aliases = aliasesOf(node, walked, last);
  for (const alias of aliases) delete node[alias];
  if (isEmpty(value)) {
    // Nothing to remove: the block stays as it is (an empty object it holds included).
    if (!Object.hasOwn(node, last) && aliases.length === 0) return block;
    delete node[last];
  } else {
    node[last] = value;
  }
  // Drop objects the removal emptied, from the inside out.
  for (let i = keys.length - 1; i >= 0; i -= 1) {
    const holder = parents[i];
    const key = keys[i];
    if (holder && key !== undefined && isEmpty(holder[key])) {
      delete holder[key];
    }
  }
  return next;
}

/** Whether the webhook block can be edited field by field: absent (or blank), or a block of settings. Else it is kept as written. */
export function webhookEditable(block: Block): boolean {
  return isBlank(block.webhook) || isRecord(block.webhook);
}

/** Whether `doors` is a list the page can edit entry by entry: absent (or blank), or an array. Else it is kept as written. */
export function doorsEditable(block: Block): boolean {
  return isBlank(block.doors) || Array.isArray(block.doors);
}

/** A door entry as the plugin reads its keys: "ID" or "readonly" read as id and readOnly. */
const entryKeys = (entry: Record<string, unknown>): Record<string, unknown> => readDoorKeys(entry).block;

/** The door entries written for a door, matched by the plugin's reading of their id; several when the door is written twice. */
function rawEntriesOf(block: Block, doorId: string): Record<string, unknown>[] {
  const doors = block.doors;
  return Array.isArray(doors)
    ? doors.filter((entry): entry is Record<string, unknown> => isRecord(entry) && idOf(entryKeys(entry).id) === canonicalId(doorId))
    : [];
}

/** The door entries for a door, each as the plugin reads its keys (a near miss under the key it nearly is). */
export function doorEntriesOf(block: Block, doorId: string): Record<string, unknown>[] {
  return rawEntriesOf(block, doorId).map(entryKeys);
}

/** The door's entry, when it has exactly one (the page edits no door written twice or in a `doors` it cannot read). */
export function doorEntry(block: Block, doorId: string): Record<string, unknown> | undefined {
  const entries = doorEntriesOf(block, doorId);
  return entries.length === 1 ? entries[0] : undefined;
}

/** Whether the page may change this door's own settings: `doors` is a list and holds at most one entry for it. */
export function doorEditable(block: Block, doorId: string): boolean {
  return doorsEditable(block) && doorEntriesOf(block, doorId).length <= 1;
}

/** The ids of the door entries, as the plugin reads them, each once, in their order. */
export function configuredDoorIds(block: Block): string[] {
  const doors = block.doors;
  if (!Array.isArray(doors)) return [];
  const ids = doors
    .map((entry) => (isRecord(entry) ? idOf(entryKeys(entry).id) : undefined))
    .filter((id): id is string => id !== undefined);
  return [...new Set(ids)];
}

/**
 * Sets one door's own setting and nothing else: the key of its one entry (the id kept as written, a number stays a
 * number), or a new entry at the end. An entry this edit leaves with its id only is removed, and a list it empties.
 * A door the page may not edit (doorEditable) is left as it is.
 */
export function setDoorField(block: Block, doorId: string, key: string, value: unknown): Block {
  if (!doorEditable(block, doorId)) return block;
  const next = copy(block);
  const doors: unknown[] = Array.isArray(next.doors) ? next.doors : [];
  const index = doors.findIndex((entry) => isRecord(entry) && idOf(entryKeys(entry).id) === canonicalId(doorId));
  const entry = doors[index];
  if (!isRecord(entry)) {
    if (isEmpty(value)) return block;
    next.doors = [...doors, { id: doorId, [key]: value }];
    return next;
  }
  // The setting written as a near miss ("readonly") is the one changed: rewritten under its key.
  const aliases = readDoorKeys(entry).aliases.get(key) ?? [];
  for (const alias of aliases) delete entry[alias];
  if (!isEmpty(value)) {
    entry[key] = value;
    return next;
  }
  if (!Object.hasOwn(entry, key) && aliases.length === 0) return block;
  delete entry[key];
  if (Object.keys(entryKeys(entry)).every((k) => k === 'id')) {
    doors.splice(index, 1);
    if (doors.length === 0) delete next.doors;
  }
  return next;
}

/** Removes the door's own entry (it follows the settings for all doors again); a list emptied by it goes. */
export function removeDoorEntry(block: Block, doorId: string): Block {
  if (!doorEditable(block, doorId) || doorEntriesOf(block, doorId).length === 0 || !Array.isArray(block.doors)) return block;
  const next = copy(block);
  const rest = (next.doors as unknown[]).filter((entry) => !(isRecord(entry) && idOf(entryKeys(entry).id) === canonicalId(doorId)));
  if (rest.length === 0) delete next.doors;
  else next.doors = rest;
  return next;
}

/** A flag for all doors as the plugin applies it: as read when set (an unreadable protective one fails closed), else its catalog default. */
export function globalFlag(block: Block, option: FlagOption): boolean {
  const value = appliedField(block, option.key);
  return typeof value === 'boolean' ? value : defaultOf(option);
}

/**
 * A box for all doors ticked or not: the other value than the flag's default is written; the default writes nothing (the
 * key goes), as it always has for the flags off by default, so unticking and ticking back an unset box leaves the block as it was.
 */
export const setGlobalFlag = (block: Block, option: FlagOption, on: boolean): Block =>
  setField(block, option.key, on === defaultOf(option) ? undefined : on);

export function doorChoice(block: Block, doorId: string, flag: DoorFlag): Choice {
  const value = appliedDoorEntry(block, doorId)?.[flag];
  return value === true ? 'on' : value === false ? 'off' : 'inherit';
}

export function setDoorChoice(block: Block, doorId: string, flag: DoorFlag, choice: Choice): Block {
  return setDoorField(block, doorId, flag, choice === 'inherit' ? undefined : choice === 'on');
}

/** The value a saved one of a choice means, as the plugin reads it (true and false as the values they stand for); undefined when unreadable. */
function choiceOf(option: ChoiceOption, value: unknown): string | undefined {
  if (typeof value === 'boolean') return option.booleans?.[`${value}`];
  // A value typed nearly right ("Owned") is read as the one it nearly is, as the plugin's parser does.
  return typeof value === 'string' ? (option.values.find((known) => known === value) ?? nearMiss(value, option.values)) : undefined;
}

/** A choice for all doors: its default unless set. */
export function globalChoice(block: Block, option: ChoiceOption): string {
  return choiceOf(option, appliedField(block, option.key)) ?? defaultOf(option);
}

/** The value the default stands for writes nothing; another is written by name. */
export function setGlobalChoice(block: Block, option: ChoiceOption, value: string): Block {
  return setField(block, option.key, value === defaultOf(option) ? undefined : value);
}

/** A door's own value of a choice, as the plugin reads it; 'inherit' (as for all doors) when unset or unreadable. */
export function doorChoiceOf(block: Block, doorId: string, option: ChoiceOption): string {
  return choiceOf(option, appliedDoorEntry(block, doorId)?.[option.key]) ?? 'inherit';
}

/**
 * "As for all doors" writes nothing; a value is written by name, but the one an option reads from false (the switch's
 * off) is written as false, as the plugin has always read it; a door's value overrides the one for all doors.
 */
export function setDoorChoiceOf(block: Block, doorId: string, option: ChoiceOption, choice: string): Block {
  const value = choice === 'inherit' ? undefined : option.booleans?.false === choice ? false : choice;
  return setDoorField(block, doorId, option.key, value);
}

/** An id filter as the plugin reads it: its ids, and whether the page can tick it (a list of ids, or absent). */
export interface FilterOnPage {
  /** The ids the plugin applies (an include list with an element it cannot read applies none). */
  ids: string[];
  /** A list the page may add to and remove from: absent, or an array whose every element is an id or blank. */
  editable: boolean;
}

/** Reads a filter with the plugin's own reader (readIdList in src/config/values.ts), and says whether the page may tick it. */
export function filterOnPage(block: Block, key: IdList): FilterOnPage {
  const value = block[key];
  const reading = readIdList(value);
  const editable = (isBlank(value) || Array.isArray(value)) && reading.bad.length === 0 && reading.numbers.length === 0;
  const include = key === 'includeDeviceIds' || key === 'includeDoorIds';
  // An include list with an element that cannot be read hides nothing (the plugin keeps those doors read-only instead).
  const unreadable = reading.bad.length > 0 || (include && reading.numbers.length > 0);
  return { ids: unreadable && include ? [] : reading.ids, editable };
}

/** Whether the controller ticks can change both controller lists: each absent or a list of ids. */
export function controllersEditable(block: Block): boolean {
  return filterOnPage(block, 'includeDeviceIds').editable && filterOnPage(block, 'excludeDeviceIds').editable;
}

/** Whether the filters let a controller's doors in (the plugin applies the same two lists). */
export function controllerIncluded(block: Block, controllerId: string): boolean {
  const lists = {
    includeDeviceIds: filterOnPage(block, 'includeDeviceIds').ids,
    excludeDeviceIds: filterOnPage(block, 'excludeDeviceIds').ids,
  };
  return controllerLetIn(lists, controllerId);
}

/** The list with the elements the plugin reads as `id` taken out, every other element as written; undefined when emptied. */
function without(list: unknown, id: string): unknown[] | undefined {
  const rest = (Array.isArray(list) ? (list as unknown[]) : []).filter((element) => idOf(element) !== canonicalId(id));
  return rest.length > 0 ? rest : undefined;
}

/** The list with `id` added at its end, every other element as written. */
const withId = (list: unknown, id: string): unknown[] => [...(Array.isArray(list) ? (list as unknown[]) : []), id];

/**
 * Lets a controller's doors in or keeps them out, changing only the elements for that controller: every other element
 * of both lists stays as written (a number stays a number). Lists the page cannot read are left as they are.
 */
export function setControllerIncluded(block: Block, controllerId: string, included: boolean): Block {
  if (!controllersEditable(block) || controllerIncluded(block, controllerId) === included) return block;
  const include = filterOnPage(block, 'includeDeviceIds').ids;
  const excluded = filterOnPage(block, 'excludeDeviceIds').ids.includes(canonicalId(controllerId));
  let next = block;
  if (included) {
    if (excluded) next = setField(next, 'excludeDeviceIds', without(next.excludeDeviceIds, controllerId));
    if (include.length > 0 && !include.includes(canonicalId(controllerId)))
      next = setField(next, 'includeDeviceIds', withId(next.includeDeviceIds, controllerId));
    return next;
  }
  const remaining = include.filter((id) => id !== canonicalId(controllerId));
  if (include.includes(canonicalId(controllerId)) && remaining.length > 0) {
    return setField(next, 'includeDeviceIds', without(next.includeDeviceIds, controllerId));
  }
  // An emptied "only these" list would mean "all": the list stays and the other one keeps this controller out.
  return setField(next, 'excludeDeviceIds', withId(next.excludeDeviceIds, controllerId));
}

/**
 * The updates to hand the Homebridge UI, in order. It merges an update into its own copy of each block (Object.assign in
 * UI 5.28), so a top-level key the page removed (Off for all doors, an unticked box) would stay as it was: every key the
 * UI may hold (`known`, per entry: loaded or sent before, updated here, in the order the UI's copy holds them) that a
 * block no longer has is sent as undefined, which the merge copies and the UI's save (JSON) leaves out. A merge keeps each
 * key where the UI's copy has it and adds new ones at the end, so a key written anew in its old place (a one-click fix of
 * "ReadOnly" to "readOnly") would move to the end: then a first update cuts the UI's list before that block (it drops
 * the blocks past the ones it is sent) and a second hands it that block and the ones after it whole, in their order.
 */
export function uiUpdates(blocks: Block[], known: Set<string>[]): Block[][] {
  const merged = (block: Block, index: number): Block => {
    const keys = (known[index] ??= new Set());
    const removed = [...keys].filter((key) => !(key in block));
    for (const key of Object.keys(block)) keys.add(key);
    return { ...Object.fromEntries(removed.map((key) => [key, undefined])), ...block };
  };
  const reordered = blocks.findIndex((block, index) => {
    const held = [...(known[index] ?? [])];
    const after = [...held.filter((key) => key in block), ...Object.keys(block).filter((key) => !held.includes(key))];
    return after.join('\n') !== Object.keys(block).join('\n');
  });
  if (reordered < 0) return [blocks.map(merged)];
  const cut = blocks.slice(0, reordered).map(merged);
  known.length = reordered;
  return [cut, [...cut, ...blocks.slice(reordered).map((block, index) => merged(block, reordered + index))]];
}

/** A whole number typed in a field: undefined when empty, null when it is not one. */
export function readWholeNumber(text: string): number | undefined | null {
  const trimmed = text.trim();
  if (trimmed === '') {
    return undefined;
  }
  return /^\d+$/.test(trimmed) ? Number(trimmed) : null;
}

/** Why a webhook API key cannot be right, or undefined. */
export function apiKeyProblem(key: string): string | undefined {
  if (key === '') {
    return 'The API key is required: the service issued it with the webhooks.';
  }
  if (!/^[0-9a-fA-F]*$/.test(key)) {
    return 'The API key holds only the characters 0-9 and a-f.';
  }
  return key.length === 96 ? undefined : `The API key has 96 characters; this one has ${key.length}.`;
}

/** The records whose keys the plugin reads as near misses: the block, its webhook block, each door entry (by parent path). */
function keyedRecords(block: Block): { parent: string; record: Record<string, unknown>; keys: ReadKeys }[] {
  const records = [{ parent: '', record: block, keys: readTopKeys(block) }];
  const webhook = getField(block, 'webhook');
  const webhookKey = Object.hasOwn(block, 'webhook') ? 'webhook' : (records[0]?.keys.aliases.get('webhook')?.[0] ?? 'webhook');
  if (isRecord(webhook)) records.push({ parent: webhookKey, record: webhook, keys: readWebhookKeys(webhook) });
  if (Array.isArray(block.doors)) {
    block.doors.forEach((entry: unknown, index) => {
      if (isRecord(entry)) records.push({ parent: `doors.${index}`, record: entry, keys: readDoorKeys(entry) });
    });
  }
  return records;
}

/** Each block's near misses, kept while the block is the same object: every control of a redraw asks. */
const fixesOf = new WeakMap<Block, KeyFix[]>();

/** Every key written as a near miss of a setting, with the setting it is read as (the page offers to write it so). */
export function keyFixes(block: Block): KeyFix[] {
  const known = fixesOf.get(block);
  if (known !== undefined) return known;
  const fixes = keyedRecords(block).flatMap(({ parent, keys }) =>
    [...keys.aliases].flatMap(([key, written]) => written.map((alias) => ({ parent, written: alias, key }))),
  );
  fixesOf.set(block, fixes);
  return fixes;
}

/**
 * Writes a near miss under the key it is read as, with the value the plugin applies for that key (where both spellings
 * were written, their most protective value): what the plugin does stays the same, and nothing else changes.
 */
export function applyKeyFix(block: Block, fix: KeyFix): Block {
  const next = copy(block);
  const found = keyedRecords(next).find((each) => each.parent === fix.parent);
  if (found === undefined || !Object.hasOwn(found.record, fix.written)) return block;
  const value = found.keys.block[fix.key];
  const entries = Object.entries(found.record).flatMap(([key, held]): [string, unknown][] =>
    key === fix.written ? [[fix.key, value]] : key === fix.key ? [] : [[key, held]],
  );
  for (const key of Object.keys(found.record)) delete found.record[key];
  // The key takes the near miss's place: the entry reads in the order it was written.
  Object.assign(found.record, Object.fromEntries(entries));
  return next;
}
