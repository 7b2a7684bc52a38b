// The one place a config key becomes the label the settings page shows: its server's messages name fields as the user reads them.
import { OPTIONS, pageLabel, titleOf } from '../../option-catalog.js';

/** The page's own labels of the fields its requests carry (src/ui/public/index.html), so a message points at the field the user sees. */
export const LABELS = {
  baseUrl: 'Service address',
  accessToken: 'Access token',
  port: 'Listener port',
  savedPort: 'Listener port',
  host: 'Listen on address',
  path: 'Path (optional)',
  apiKey: 'Webhook API key',
  headerName: 'API key header',
  // The page sends whether both TLS files are filled in.
  tls: 'TLS certificate file',
  entryIndex: 'Settings for',
  // "People and activity" sends the doors it reads: not a field, but named in words should it ever be wrong.
  doorIds: 'The doors to read',
} as const;

/** A page label without its trailing hint in brackets ("Poll interval (seconds, 10 to 3600)" is "Poll interval"). */
const short = (label: string): string => label.replace(/\s*\([^)]*\)\s*$/, '');

/** The webhook block's fields, by the labels of section 3 of the page. Looked up in Maps: a key may be any outside text ("constructor"). */
const WEBHOOK_LABELS = new Map<string, string>(
  Object.entries({
    enabled: 'Receive webhooks',
    port: LABELS.port,
    apiKey: LABELS.apiKey,
    path: 'Path',
    host: LABELS.host,
    headerName: LABELS.headerName,
    reconcileInterval: 'Safety-net poll interval',
    tlsCertFile: 'TLS certificate file',
    tlsKeyFile: 'TLS key file',
  }),
);

/** The filters are the page's controller and door ticks; it has no field named after them. */
const FILTER_LABELS = {
  includeDeviceIds: 'the controllers to show',
  excludeDeviceIds: 'the controllers left out',
  includeDoorIds: 'the doors to show',
  excludeDoorIds: 'the doors left out',
};

/** Top-level keys: the account's two fields, the webhook block, the filters, and every option the page draws (the catalog's page label). */
const TOP_LABELS = new Map<string, string>([
  ['accessToken', LABELS.accessToken],
  ['baseUrl', LABELS.baseUrl],
  ['webhook', 'Real-time updates (webhooks)'],
  ['doors', 'the per-door settings'],
  ...Object.entries(FILTER_LABELS),
  ...OPTIONS.map((option): [string, string] => [option.key, short(pageLabel(option))]),
]);

/** A door entry's keys, by the labels of the door's row. */
const DOOR_LABELS = new Map<string, string>([
  ['id', 'door id'],
  ['name', 'Name in Home'],
  ...OPTIONS.map((option): [string, string] => [option.key, short(titleOf(option))]),
]);

/** "doors.2" is the third door entry, and "doors.2.readOnly" its Read-only. */
function doorPath(index: string, key: string | undefined): string {
  const entry = `door entry ${Number(index) + 1}`;
  return key === undefined ? entry : `${DOOR_LABELS.get(key) ?? key} of ${entry}`;
}

/**
 * A config path as the page names it: "webhook.port" is "Listener port", "includeDoorIds.1" the second of "the doors
 * to show". Undefined: not a path this page knows.
 */
export function labelOf(path: string): string | undefined {
  const [top = '', second, third] = path.split('.');
  if (top === 'doors' && second !== undefined && /^\d+$/.test(second)) {
    return doorPath(second, third);
  }
  if (top === 'webhook' && second !== undefined) {
    return WEBHOOK_LABELS.get(second);
  }
  const label = TOP_LABELS.get(top);
  if (label === undefined || third !== undefined) {
    return undefined;
  }
  return second !== undefined && /^\d+$/.test(second)
    ? `entry ${Number(second) + 1} of ${label}`
    : second === undefined
      ? label
      : undefined;
}

/** Keys a reader could not take for an English word: written in camelCase or as a dotted path. */
const KEY_LIKE = /(?<![\w".])([a-z][A-Za-z]*(?:\.[A-Za-z0-9]+)+|[a-z]+[A-Z][A-Za-z]*)(?![\w"])/g;
/** Lower-case keys that are also English words ("doors", "hide", "name"): only as the subject opening the sentence. */
const OPENING_KEY = /^([a-z]+)(?= (?:must|is|repeats)\b)/;

/**
 * One of the parser's sentences in the page's words: every config key it names becomes the field's label
 * ("accessToken is required" is "Access token is required"). The parser's own sentences stay as the log says them.
 */
export function inPageWords(sentence: string): string {
  const opened = sentence.replace(OPENING_KEY, (key) => labelOf(key) ?? key);
  const worded = opened.replace(KEY_LIKE, (key) => labelOf(key) ?? key);
  return worded.charAt(0).toUpperCase() + worded.slice(1);
}
