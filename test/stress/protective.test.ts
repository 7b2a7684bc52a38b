// Protective by default (issue 42), as a property: real ids of an account written into every protective setting through
// random transformations (case, any default-ignorable character, bidi controls, compatibility forms, look-alike letters,
// separators, trailing punctuation, lists, two spellings, unknown keys, object maps, JSON text). For each config, the door
// it names is read-only or left out, a finding names it where the setting was not read exactly, and a plain door opens.
import fc from 'fast-check';
import confusables from 'unhomoglyph/data.json' with { type: 'json' };
import { describe, expect, it } from 'vitest';

import { parseConfig } from '../../src/config/index.js';
import { protectionFor } from '../../src/config/protection.js';
import type { AccountIds } from '../../src/config/protection.js';
import { doorOptions, exclusionReason, guarded } from '../../src/config/door-options.js';
import { canonicalId, uncasedId } from '../../src/util/canonical-id.js';
import { editDistance } from '../../src/util/near-miss.js';
import { skeleton } from '../../src/util/skeleton.js';

const RUNS = 400;
const TOKEN = 'ac_live_4f9b8e2d7c1a6b3f5e9d0c8b';

/** Every character Unicode calls default-ignorable or a bidi control. */
const IGNORABLES = Array.from({ length: 0x110000 }, (_, code) => code)
  .filter((code) => code < 0xd800 || code > 0xdfff)
  .map((code) => String.fromCodePoint(code))
  .filter((char) => /[\p{Default_Ignorable_Code_Point}\p{Bidi_Control}]/u.test(char));

/** For each ASCII letter and digit, the characters of other scripts Unicode's confusables data says look like it. */
const LOOK_ALIKES = new Map<string, string[]>();
for (const [char, prototype] of Object.entries(confusables as Record<string, string>)) {
  const plain = prototype.toLowerCase();
  if (/^[a-z0-9]$/.test(plain) && (char.codePointAt(0) ?? 0) > 0x7f && canonicalId(char) === char.toLowerCase()) {
    LOOK_ALIKES.set(plain, [...(LOOK_ALIKES.get(plain) ?? []), char]);
  }
}

/** A door of the account, and its controller, alone on it (a controller exclusion then names that door only). */
interface Door {
  id: string;
  deviceId: string;
}

/** Two doors whose ids are far apart, as the service's random UUIDs are: the one named, and a plain one. */
const account = fc
  .tuple(fc.uuid(), fc.uuid(), fc.constantFrom('upper', 'lower'))
  .filter(([a, b]) => editDistance(a, b, 8) > 8)
  .map(([a, b, casing]) => ({
    named: { id: casing === 'upper' ? a.toUpperCase() : a, deviceId: 'ctl-named' },
    plain: { id: b, deviceId: 'ctl-plain' },
  }));

/** One way to write an id: each step keeps it an id a careful reader would say is the same door. */
const writing = fc.record({
  upper: fc.array(fc.boolean(), { minLength: 36, maxLength: 36 }),
  ignorables: fc.array(fc.tuple(fc.nat(36), fc.constantFrom(...IGNORABLES)), { maxLength: 4 }),
  fullwidth: fc.array(fc.nat(35), { maxLength: 6 }),
  lookAlikes: fc.array(fc.tuple(fc.nat(35), fc.nat()), { maxLength: 5 }),
  typo: fc.option(fc.tuple(fc.nat(35), fc.constantFrom(...Array.from('0123456789abcdef'))), { nil: undefined }),
  around: fc.constantFrom('', ' ', ',', ';', '"', '\u00a0', '\u201d', ', ', '.'),
});

type Way = typeof writing extends fc.Arbitrary<infer T> ? T : never;

/** The id written one way: what the user typed or pasted. */
function write(id: string, way: Way): string {
  const chars = Array.from(id.toLowerCase(), (char, i) => (way.upper[i] ? char.toUpperCase() : char));
  // A typo and look-alike letters add up as edits: the typo only with two look-alikes at most (3 edits in 36 characters).
  const lookAlikes = way.typo === undefined ? way.lookAlikes : way.lookAlikes.slice(0, 2);
  for (const [at, pick] of lookAlikes) {
    const options = LOOK_ALIKES.get((chars[at] ?? '').toLowerCase());
    if (options?.length) chars[at] = options[pick % options.length] ?? chars[at] ?? '';
  }
  for (const at of way.fullwidth) {
    const char = chars[at] ?? '';
    if (/^[!-~]$/.test(char)) chars[at] = String.fromCodePoint(char.charCodeAt(0) + 0xfee0);
  }
  if (way.typo !== undefined) {
    const [at, digit] = way.typo;
    if (canonicalId(chars[at] ?? '') !== digit) chars[at] = digit;
  }
  for (const [at, char] of way.ignorables) chars.splice(at, 0, char);
  return `${chars.join('')}${way.around}`;
}

/** An id of no door, to stand beside the named one in a list. */
const STRANGER = '00000000-dead-4bee-8f00-000000000000';

/** What the plugin makes of a door once the account is read. */
interface Fate {
  shown: boolean;
  readOnly: boolean;
  automationSwitch: string;
  findings: string[];
}

/**
 * Where the written id goes: each a protective setting, in a form the reader may not read exactly, and what must hold of
 * the door it names (`exact`: the written id is the door's, canonical; a setting the plugin reads then does just what it says).
 */
interface Form {
  raw: (written: string, plain: Door, named: Door) => Record<string, unknown>;
  holds: (fate: Fate, exact: boolean) => boolean;
  /** The plugin reads this setting: an exact id in it is understood and needs no line. */
  read?: true;
}
const readOnly = (fate: Fate): boolean => fate.shown && fate.readOnly;
const leftOut = (fate: Fate): boolean => !fate.shown;
const FORMS: Record<string, Form> = {
  readOnlyEntry: { raw: (w) => ({ doors: [{ id: w, readOnly: true }] }), holds: readOnly, read: true },
  hiddenEntry: { raw: (w) => ({ doors: [{ id: w, hide: true }] }), holds: leftOut, read: true },
  // Read exactly, it takes the switch away and nothing else; could-mean makes the door read-only.
  switchOffEntry: {
    raw: (w) => ({ automationSwitch: 'open-close', doors: [{ id: w, automationSwitch: 'off' }] }),
    holds: (fate, exact) => (exact ? fate.shown && fate.automationSwitch === 'off' : readOnly(fate)),
    read: true,
  },
  excludeDoorIds: { raw: (w) => ({ excludeDoorIds: [w] }), holds: leftOut, read: true },
  excludeDoorIdsAsText: { raw: (w) => ({ excludeDoorIds: w }), holds: leftOut, read: true },
  excludeDeviceIds: {
    raw: (_w, _p, named) => ({ excludeDeviceIds: [`\u200f${named.deviceId.toUpperCase()},`] }),
    holds: leftOut,
    read: true,
  },
  // Read exactly, it lets the door in; could-mean lets it in read-only, never hides it in silence.
  includeDoorIds: {
    raw: (w, plain) => ({ includeDoorIds: [w, plain.id] }),
    holds: (fate, exact) => fate.shown && (exact || fate.readOnly),
    read: true,
  },
  listInOneEntry: { raw: (w) => ({ doors: [{ id: `${w}, ${STRANGER}`, readOnly: true }] }), holds: readOnly },
  twoSpellings: { raw: (w) => ({ excludeDoorIds: [STRANGER], excludeDoorIDs: [w] }), holds: leftOut, read: true },
  unknownKey: { raw: (w) => ({ readOnlyDoorIds: [w] }), holds: readOnly },
  unknownHidingKey: { raw: (w) => ({ hideDoorIds: [w] }), holds: leftOut },
  nearMissOfExclusion: { raw: (w) => ({ excludeDoors: [w] }), holds: leftOut },
  objectMap: { raw: (w) => ({ doors: { [w]: { readOnly: true } } }), holds: readOnly },
  jsonText: { raw: (w) => ({ doors: JSON.stringify([{ id: w, readOnly: true }]) }), holds: readOnly },
  perDoorList: { raw: (w) => ({ perDoor: [{ id: w, readOnly: true }] }), holds: readOnly },
  // The entry names its door by its place (doors.0) whatever its id: the door it could mean is read-only too.
  entryUnknownKey: { raw: (w) => ({ doors: [{ id: w, automation: 'off' }] }), holds: readOnly, read: true },
};

/** What the plugin makes of a door once the account is read. */
function fate(raw: Record<string, unknown>, ids: AccountIds, door: Door): Fate {
  const parsed = parseConfig({ accessToken: TOKEN, baseUrl: 'https://api.example.com', ...raw });
  if (!parsed.ok) throw new Error(parsed.problems.join('; '));
  const protection = protectionFor(parsed.config, ids, skeleton);
  const options = doorOptions(parsed.config, door.id, door.deviceId);
  return {
    shown: exclusionReason(parsed.config, { id: door.id, relationship: 'owner' }, door.deviceId, protection) === undefined,
    readOnly: options.readOnly || guarded(protection, door.id),
    automationSwitch: options.automationSwitch,
    findings: [...parsed.ignored, ...parsed.warnings, ...protection.findings.map((finding) => finding.sentence)],
  };
}

describe('whatever names a door protects it until the plugin understands it (issue 42)', () => {
  it.each(Object.keys(FORMS))('%s: the door it names is protected, a finding names it, and a plain door opens', (name) => {
    const form = FORMS[name];
    if (!form) throw new Error(name);
    fc.assert(
      fc.property(account, writing, ({ named, plain }, way) => {
        const written = write(named.id, way);
        const raw = form.raw(written, plain, named);
        const ids: AccountIds = { doors: [named, plain] };
        const exact = name === 'excludeDeviceIds' || canonicalId(written) === canonicalId(named.id);
        const outcome = fate(raw, ids, named);
        expect(form.holds(outcome, exact), `${name}: ${JSON.stringify(raw)} left ${JSON.stringify(outcome)}`).toBe(true);
        const other = fate(raw, ids, plain);
        expect(other.shown && !other.readOnly, `the plain door under ${JSON.stringify(raw)}`).toBe(true);
        // An id read exactly in a setting the plugin reads needs no line; anything else is said, naming the door.
        if (!(exact && form.read)) {
          expect(outcome.findings.join('\n').toLowerCase(), JSON.stringify(raw)).toContain(canonicalId(named.id).slice(9, 18));
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('the transformations reach what they claim: every look-alike has the skeleton of its letter', () => {
    for (const [letter, chars] of LOOK_ALIKES) for (const char of chars) expect(skeleton(uncasedId(char)), char).toBe(skeleton(letter));
    expect(LOOK_ALIKES.get('a')).toContain('\u0430');
    expect(IGNORABLES.length).toBeGreaterThan(4000);
  });
});
