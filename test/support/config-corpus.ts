// The shared corpus of platform-block shapes (issue 29): each is run through the runtime parser and through the settings
// page (its model in test/unit/ui/page, the real page in Chromium in test/ui), which must agree on it and keep it as written.
//
// To add a shape, append an entry to CONFIG_CORPUS: a name that says what it is, the block with ACCOUNT_FIELDS spread in
// (the tests put a working address and token in their place), and the one edit a user makes on it.

/** Stand-ins for a working address and token: `withAccount()` replaces them with the test's own. */
export const BASE_URL_PLACEHOLDER = 'https://corpus.invalid';
export const TOKEN_PLACEHOLDER = 'corpus-access-token';
export const ACCOUNT_FIELDS = { baseUrl: BASE_URL_PLACEHOLDER, accessToken: TOKEN_PLACEHOLDER } as const;

/**
 * The account the shapes speak of: controller and door ids chosen to trip a page that reads ids carelessly (a number
 * written for "555" and "424242", doors named like what every object inherits).
 */
export const CORPUS_ACCOUNT: readonly { controllerId: string; doorIds: readonly string[] }[] = [
  { controllerId: '555', doorIds: ['constructor', '__proto__'] },
  { controllerId: 'dev-b', doorIds: ['toString', '424242'] },
  { controllerId: 'dev-c', doorIds: ['gate-c'] },
];

/** The one change a user makes on the page, as the page's model makes it. */
export type CorpusEdit =
  /** A number or text typed for all doors (the page's field for `path`; "pollInterval" is in the timing section). */
  | { kind: 'field'; path: string; value: string | number }
  /** A controller's box ticked (included) or unticked, once signed in. */
  | { kind: 'controller'; controllerId: string; included: boolean }
  /** A text typed for one door in its row (its "Name in Home": key "name"), once signed in. */
  | { kind: 'door'; doorId: string; key: 'name'; value: string };

export interface CorpusShape {
  /** What the shape is, as a test's name shows it. */
  name: string;
  /** The finding of issue 29 it reproduces, when it is one. */
  finding?: number;
  /** The platform block without `platform` (the tests add it), with ACCOUNT_FIELDS in it. */
  block: Record<string, unknown>;
  edit: CorpusEdit;
}

/** The edit most shapes get: a poll interval typed, far from anything the shape is about. */
export const POLL_EDIT: CorpusEdit = { kind: 'field', path: 'pollInterval', value: 45 };

const HEX_KEY = 'ab12'.repeat(24);

export const CONFIG_CORPUS: CorpusShape[] = [
  { name: 'only the account', block: { ...ACCOUNT_FIELDS }, edit: POLL_EDIT },
  {
    name: 'a door entry with a number id',
    finding: 1,
    block: { ...ACCOUNT_FIELDS, doors: [{ id: 424242, readOnly: true }] },
    edit: POLL_EDIT,
  },
  {
    name: 'a door entry with a number id, renamed',
    finding: 1,
    block: {
      ...ACCOUNT_FIELDS,
      doors: [
        { id: 424242, readOnly: true },
        { id: 'gate-c', hide: true },
      ],
    },
    edit: { kind: 'door', doorId: '424242', key: 'name', value: 'Shed' },
  },
  {
    name: 'doors written as one entry, not a list',
    finding: 1,
    block: { ...ACCOUNT_FIELDS, doors: { id: 'gate-c', readOnly: true } },
    edit: POLL_EDIT,
  },
  {
    name: 'door entries the page cannot draw beside one it can: no id, not an object, an empty one',
    finding: 1,
    block: { ...ACCOUNT_FIELDS, doors: [{ readOnly: true }, 'gate-c', {}, { id: 'gate-c', name: 'Side Gate' }] },
    edit: POLL_EDIT,
  },
  {
    name: 'a door written twice (the runtime merges them, the more protective winning)',
    block: {
      ...ACCOUNT_FIELDS,
      doors: [
        { id: 'gate-c', readOnly: false },
        { id: 'gate-c', readOnly: true },
      ],
    },
    edit: POLL_EDIT,
  },
  {
    name: 'a number id in excludeDeviceIds, another controller unticked',
    finding: 2,
    block: { ...ACCOUNT_FIELDS, excludeDeviceIds: [555] },
    edit: { kind: 'controller', controllerId: 'dev-b', included: false },
  },
  { name: 'readOnly: {}', finding: 7, block: { ...ACCOUNT_FIELDS, readOnly: {} }, edit: POLL_EDIT },
  { name: 'readOnly: []', finding: 7, block: { ...ACCOUNT_FIELDS, readOnly: [] }, edit: POLL_EDIT },
  { name: 'excludeDeviceIds: {}', finding: 7, block: { ...ACCOUNT_FIELDS, excludeDeviceIds: {} }, edit: POLL_EDIT },
  { name: 'includeDoorIds: {}', finding: 7, block: { ...ACCOUNT_FIELDS, includeDoorIds: {} }, edit: POLL_EDIT },
  { name: 'doors: {}', finding: 7, block: { ...ACCOUNT_FIELDS, doors: {} }, edit: POLL_EDIT },
  { name: 'matter: {}', finding: 7, block: { ...ACCOUNT_FIELDS, matter: {} }, edit: POLL_EDIT },
  {
    name: 'door ids constructor, __proto__ and toString',
    finding: 9,
    block: {
      ...ACCOUNT_FIELDS,
      doors: [
        { id: 'constructor', hide: true },
        { id: '__proto__', hide: true },
        { id: 'toString', readOnly: true },
      ],
    },
    edit: POLL_EDIT,
  },
  { name: 'an unknown top-level key (excludeDoorIDs)', finding: 3, block: { ...ACCOUNT_FIELDS, excludeDoorIDs: ['x'] }, edit: POLL_EDIT },
  { name: 'readonly: true (case)', finding: 3, block: { ...ACCOUNT_FIELDS, readonly: true }, edit: POLL_EDIT },
  { name: '"readOnly ": true (a space after)', finding: 3, block: { ...ACCOUNT_FIELDS, 'readOnly ': true }, edit: POLL_EDIT },
  {
    name: 'reаdOnly with a Cyrillic а (U+0430): true',
    finding: 3,
    block: { ...ACCOUNT_FIELDS, ['re\u0430dOnly']: true },
    edit: POLL_EDIT,
  },
  {
    name: 'a door entry with readonly: true (case)',
    finding: 3,
    block: { ...ACCOUNT_FIELDS, doors: [{ id: 'gate-c', readonly: true }] },
    edit: POLL_EDIT,
  },
  {
    name: 'a door entry with automationswitch: "off" under automationSwitch: "open-close" for all doors',
    finding: 3,
    block: { ...ACCOUNT_FIELDS, automationSwitch: 'open-close', doors: [{ id: 'gate-c', automationswitch: 'off' }] },
    edit: POLL_EDIT,
  },
  {
    name: 'an id beyond 2^53 as a JSON number (config.json holds 9007199254740993; JSON.parse reads 9007199254740992)',
    finding: 4,
    block: { ...ACCOUNT_FIELDS, doors: [{ id: Number('9007199254740993'), readOnly: true }] },
    edit: POLL_EDIT,
  },
  { name: 'includeDoors: "own"', finding: 5, block: { ...ACCOUNT_FIELDS, includeDoors: 'own' }, edit: POLL_EDIT },
  { name: 'showAs: "Lock"', finding: 6, block: { ...ACCOUNT_FIELDS, showAs: 'Lock' }, edit: POLL_EDIT },
  { name: 'matter: "Locks"', finding: 6, block: { ...ACCOUNT_FIELDS, matter: 'Locks' }, edit: POLL_EDIT },
  {
    name: 'a child bridge (_bridge)',
    block: { ...ACCOUNT_FIELDS, name: 'Gates', _bridge: { username: '0E:2B:7C:11:90:AF', port: 51901 } },
    edit: POLL_EDIT,
  },
  {
    name: 'a webhook block with an unknown key',
    block: { ...ACCOUNT_FIELDS, webhook: { port: 51828, apiKey: HEX_KEY, pathname: '/hooks' } },
    edit: POLL_EDIT,
  },
  {
    name: 'a webhook written as text, not a block',
    block: { ...ACCOUNT_FIELDS, webhook: 'on' },
    edit: POLL_EDIT,
  },
  // Issue 36: ids and keys as the plugin reads them.
  { name: 'excludeDoorIds written as one text', block: { ...ACCOUNT_FIELDS, excludeDoorIds: 'gate-c, 424242' }, edit: POLL_EDIT },
  { name: 'includeDoorIds written as one text', block: { ...ACCOUNT_FIELDS, includeDoorIds: 'gate-c;toString' }, edit: POLL_EDIT },
  {
    name: 'a read-only door id in upper case with a zero-width space',
    block: { ...ACCOUNT_FIELDS, doors: [{ id: 'GATE-C\u200b', readOnly: true }] },
    edit: POLL_EDIT,
  },
  {
    name: 'excludeDoors (between includeDoors and excludeDoorIds)',
    block: { ...ACCOUNT_FIELDS, excludeDoors: ['gate-c'] },
    edit: POLL_EDIT,
  },
  {
    name: "a person's doors written as doorIds",
    block: { ...ACCOUNT_FIELDS, people: [{ name: 'Grace', user: 'grace@example.com', doorIds: ['gate-c'] }] },
    edit: POLL_EDIT,
  },
  { name: 'includeDoors: "Owned"', block: { ...ACCOUNT_FIELDS, includeDoors: 'Owned' }, edit: POLL_EDIT },
  {
    name: 'a read-only door id the account does not have',
    block: { ...ACCOUNT_FIELDS, doors: [{ id: 'gate-x', readOnly: true }] },
    edit: POLL_EDIT,
  },
];

/** A deep copy of the shape's block with the test's own address and token in place of the placeholders. */
export function withAccount(block: Record<string, unknown>, account: { baseUrl: string; accessToken: string }): Record<string, unknown> {
  const replace = (value: unknown): unknown =>
    value === BASE_URL_PLACEHOLDER
      ? account.baseUrl
      : value === TOKEN_PLACEHOLDER
        ? account.accessToken
        : Array.isArray(value)
          ? value.map(replace)
          : typeof value === 'object' && value !== null
            ? Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, replace(inner)]))
            : value;
  return replace(block) as Record<string, unknown>;
}
