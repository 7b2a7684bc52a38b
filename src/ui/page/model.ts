// The settings page's edits of one platform block, as pure functions: only what the user set is written, never a default.
import { OPTIONS } from '../../option-catalog.js';
import type { ChoiceOption } from '../../option-catalog.js';
import type { Defaults } from './views.js';

/** One `platforms[]` entry of config.json, as the Homebridge UI hands it over. */
export type Block = Record<string, unknown>;
/** A per-door option: inherit the value set for all doors, or override it. */
export type Choice = 'inherit' | 'on' | 'off';
/** The on/off options a door can set for itself on this page (the catalog's flags with a label per door). */
export const DOOR_FLAGS = OPTIONS.flatMap((option) => (option.kind === 'flag' && 'doorLabel' in option ? [option.key] : []));
export type DoorFlag = (typeof DOOR_FLAGS)[number];
export type IdList = 'includeDeviceIds' | 'excludeDeviceIds' | 'includeDoorIds' | 'excludeDoorIds';

export type { Defaults };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isEmpty = (value: unknown): boolean =>
  value === undefined ||
  value === null ||
  value === '' ||
  (Array.isArray(value) && value.length === 0) ||
  (isRecord(value) && Object.keys(value).length === 0);

/** A copy deep enough that the Homebridge UI's own object is never changed behind its back. */
const copy = (block: Block): Block => structuredClone(block);

export function getField(block: Block, path: string): unknown {
  let node: unknown = block;
  for (const key of path.split('.')) {
    node = isRecord(node) ? node[key] : undefined;
  }
  return node;
}

/** Sets `path` ("pollInterval", "webhook.port"); an empty value removes the field, and an emptied object goes with it. */
export function setField(block: Block, path: string, value: unknown): Block {
  const next = copy(block);
  const keys = path.split('.');
  const last = keys.pop() ?? path;
  const parents: Record<string, unknown>[] = [next];
  let node: Record<string, unknown> = next;
  for (const key of keys) {
    const child = node[key];
    node = isRecord(child) ? child : (node[key] = {});
    parents.push(node);
  }
  if (isEmpty(value)) {
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

function doorEntries(block: Block): Record<string, unknown>[] {
  const doors = block.doors;
  return Array.isArray(doors) ? doors.filter(isRecord) : [];
}

export function doorEntry(block: Block, doorId: string): Record<string, unknown> | undefined {
  return doorEntries(block).find((entry) => entry.id === doorId);
}

/** Sets one door's own setting; an entry left with its id only is removed, so `doors` lists only doors the user changed. */
export function setDoorField(block: Block, doorId: string, key: string, value: unknown): Block {
  const next = copy(block);
  const doors = doorEntries(next);
  let entry = doors.find((candidate) => candidate.id === doorId);
  if (!entry) {
    entry = { id: doorId };
    doors.push(entry);
  }
  if (isEmpty(value)) {
    delete entry[key];
  } else {
    entry[key] = value;
  }
  const kept = doors.filter((candidate) => Object.keys(candidate).some((k) => k !== 'id'));
  return setField(next, 'doors', kept);
}

export function doorChoice(block: Block, doorId: string, flag: DoorFlag): Choice {
  const value = doorEntry(block, doorId)?.[flag];
  return value === true ? 'on' : value === false ? 'off' : 'inherit';
}

export function setDoorChoice(block: Block, doorId: string, flag: DoorFlag, choice: Choice): Block {
  return setDoorField(block, doorId, flag, choice === 'inherit' ? undefined : choice === 'on');
}

/** The value a saved one of a choice means, as the plugin reads it (true and false as the values they stand for); undefined when unreadable. */
function choiceOf(option: ChoiceOption, value: unknown): string | undefined {
  return typeof value === 'boolean' ? option.booleans?.[`${value}`] : option.values.find((known) => known === value);
}

/** A choice for all doors: its default unless set. */
export function globalChoice(block: Block, option: ChoiceOption): string {
  return choiceOf(option, block[option.key]) ?? choiceOf(option, option.default) ?? option.values[0];
}

/** The value the default stands for writes nothing; another is written by name. */
export function setGlobalChoice(block: Block, option: ChoiceOption, value: string): Block {
  return setField(block, option.key, value === choiceOf(option, option.default) ? undefined : value);
}

/** A door's own value of a choice, as the plugin reads it; 'inherit' (as for all doors) when unset or unreadable. */
export function doorChoiceOf(block: Block, doorId: string, option: ChoiceOption): string {
  return choiceOf(option, doorEntry(block, doorId)?.[option.key]) ?? 'inherit';
}

/**
 * "As for all doors" writes nothing; a value is written by name, but the one an option reads from false (the switch's
 * off) is written as false, as the plugin has always read it; a door's value overrides the one for all doors.
 */
export function setDoorChoiceOf(block: Block, doorId: string, option: ChoiceOption, choice: string): Block {
  const value = choice === 'inherit' ? undefined : option.booleans?.false === choice ? false : choice;
  return setDoorField(block, doorId, option.key, value);
}

function idList(block: Block, key: IdList): string[] {
  const list = block[key];
  return Array.isArray(list) ? list.filter((id): id is string => typeof id === 'string') : [];
}

/** Whether the filters let a controller's doors in (the plugin applies the same two lists). */
export function controllerIncluded(block: Block, controllerId: string): boolean {
  const include = idList(block, 'includeDeviceIds');
  return (include.length === 0 || include.includes(controllerId)) && !idList(block, 'excludeDeviceIds').includes(controllerId);
}

/** Lets a controller's doors in or keeps them out, with the smallest change to the two lists. */
export function setControllerIncluded(block: Block, controllerId: string, included: boolean): Block {
  const include = idList(block, 'includeDeviceIds');
  const exclude = idList(block, 'excludeDeviceIds').filter((id) => id !== controllerId);
  let next = block;
  if (included) {
    if (include.length > 0 && !include.includes(controllerId)) {
      next = setField(next, 'includeDeviceIds', [...include, controllerId]);
    }
    return setField(next, 'excludeDeviceIds', exclude);
  }
  const remaining = include.filter((id) => id !== controllerId);
  if (remaining.length > 0) {
    return setField(setField(next, 'includeDeviceIds', remaining), 'excludeDeviceIds', exclude);
  }
  // An emptied "only these" list would mean "all": the list stays and the other one keeps this controller out.
  return setField(next, 'excludeDeviceIds', [...exclude, controllerId]);
}

/**
 * What the block should be before it is handed to the Homebridge UI to save: no empty values, no value equal to the
 * plugin's default (older versions of the form wrote them all), and no door entry without an id or with nothing else.
 */
export function tidy(block: Block, defaults: Defaults): Block {
  let next = copy(block);
  for (const [path, value] of Object.entries(defaults)) {
    if (getField(next, path) === value) {
      next = setField(next, path, undefined);
    }
  }
  for (const key of Object.keys(next)) {
    if (isEmpty(next[key])) {
      next = setField(next, key, undefined);
    }
  }
  const doors = doorEntries(next).filter((entry) => typeof entry.id === 'string' && entry.id !== '');
  const kept = doors
    .map((entry) => Object.fromEntries(Object.entries(entry).filter(([, v]) => !isEmpty(v))))
    .filter((entry) => Object.keys(entry).length > 1);
  return setField(next, 'doors', kept);
}

/**
 * The blocks to hand the Homebridge UI. It merges an update into its own copy of each block (Object.assign in UI
 * 5.28), so a top-level key the page removed (Off for all doors, an unticked box) would stay as it was: every key the
 * UI may hold (`known`, per entry: loaded or sent before, updated here) that a block no longer has is sent as
 * undefined, which the merge copies and the UI's save (JSON) leaves out.
 */
export function forUiUpdate(blocks: Block[], known: Set<string>[]): Block[] {
  return blocks.map((block, index) => {
    const keys = (known[index] ??= new Set());
    const removed = [...keys].filter((key) => !(key in block));
    for (const key of Object.keys(block)) keys.add(key);
    return { ...Object.fromEntries(removed.map((key) => [key, undefined])), ...block };
  });
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
