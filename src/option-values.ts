// An option's value as its readers get it: the catalog's default where nothing sets it, and a choice's boolean as the
// value it stands for. The one place a default is applied (issue 53): the parser's top-level values, each door's options,
// the platform and a door whose settings cannot be read, and the settings page all take theirs from here, so no reader
// writes `?? default` and an option's default changes in its catalog entry alone (test/unit/option-values.test.ts checks).
// Like the catalog, it imports nothing else: the settings page (a browser module) loads it too.
import { OPTIONS } from './option-catalog.js';
import type { Option, OptionSpec, ValueOf } from './option-catalog.js';

/**
 * What an option's reader gets: the value set, else the default. A choice that reads booleans too (`booleans`) gives the
 * value the boolean stands for; a number without a default is undefined when not set (its `empty` says what that means).
 */
export type Resolved<O> = O extends { kind: 'number'; default: number }
  ? number
  : O extends { kind: 'number' }
    ? number | undefined
    : O extends { kind: 'choice'; values: readonly (infer V)[] }
      ? V
      : ValueOf<O>;

/** The value of `option` for its reader, from the value the parser read (undefined when nothing sets it). */
export function resolved<O extends OptionSpec>(option: O, value: unknown): Resolved<O> {
  const read = value ?? ('default' in option ? option.default : undefined);
  const named = option.kind === 'choice' && typeof read === 'boolean' && option.booleans ? option.booleans[`${read}`] : read;
  return named as Resolved<O>;
}

/** The value of `option` when nothing sets it. */
export const defaultOf = <O extends OptionSpec>(option: O): Resolved<O> => resolved(option, undefined);

/** Every option's value, by its catalog key (the unit of a number is its entry's `unit`). */
export type OptionValues = { [O in Option as O['key']]: Resolved<O> };

/** Every option's value when nothing sets it: what the platform and a door run with while the settings cannot be read. */
export const OPTION_DEFAULTS = Object.fromEntries(OPTIONS.map((option) => [option.key, defaultOf(option)])) as OptionValues;
