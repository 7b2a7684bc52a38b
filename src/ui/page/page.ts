// The settings page's entry point: loads the plugin's entries, wires every section, and hands each change to the Homebridge UI.
import type {} from '@homebridge/plugin-ui-utils/ui.interface';

import { optionSpec } from '../../option-catalog.js';
import { MIN_RECONCILE_INTERVAL_S } from '../../settings.js';
import { checkBlock } from '../shared/check-config.js';
import { setUpActivity } from './activity-view.js';
import { redactAnswersWith, server } from './api.js';
import { byId, fill, h, status } from './dom.js';
import { refreshDoorStatus, renderDoors } from './doors-view.js';
import { bindNumber, bindText } from './fields.js';
import { applyKeyFix, getField, uiUpdates } from '../shared/block.js';
import { setUpOptions } from './options-view.js';
import { Store } from './store.js';
import type { CachedDoor } from './store.js';
import { othersText, summarize, WARNINGS_TEXT } from './summary.js';
import { COULD_MEAN_RULE, PROTECTIVE_RULE } from '../../config/protection.js';
import type { DoorSummary } from '../shared/messages.js';
import { renderFixes } from './fixes-view.js';
import { signInLine } from './sign-in-line.js';
import { withoutSecretsIn } from '../../util/redact.js';
import { secretsOf } from '../../config/secret-values.js';
import { setUpWebhook } from './webhook-view.js';

const hb = window.homebridge;
// The Homebridge UI's frame document has no language; screen readers need it to pick a voice.
document.documentElement.lang = 'en';
/** The page checks the block once typing pauses for this long, so the summary does not flicker with every key. */
const CHECK_DELAY_MS = 300;

/** Doors of this platform in Homebridge's accessory cache: the list to work with while the service cannot be reached. */
async function cachedDoors(platform: string): Promise<CachedDoor[]> {
  const cached = await hb.getCachedAccessories().catch(() => []);
  return (
    cached
      .filter((accessory) => accessory.platform === platform && typeof accessory.context.doorId === 'string')
      .map((accessory): CachedDoor => {
        // The cache is the plugin's own DoorContext, but read as outside data: it may come from an older version.
        const context = accessory.context as Record<string, unknown>;
        const state = context.state;
        // The account's name, as the signed-in list shows it: `name` is the shown one, a Name in Home among them.
        const name =
          typeof context.accountName === 'string'
            ? context.accountName
            : typeof context.name === 'string'
              ? context.name
              : accessory.displayName;
        const door: DoorSummary = {
          id: String(context.doorId),
          name,
          controllerId: typeof context.deviceId === 'string' ? context.deviceId : '',
          state: state === 'OPEN' || state === 'CLOSED' ? state : null,
          active: true,
          owned: undefined,
          relationship: undefined,
          sensor: false,
          batteryPct: undefined,
        };
        // The entry that showed it (DoorContext.entry): the page lists it under that entry only.
        return { entry: typeof context.entry === 'string' ? context.entry : undefined, door };
      })
      // By name: the cache's own order changes each time Homebridge rewrites an accessory (a rename, say).
      .sort((a, b) => a.door.name.localeCompare(b.door.name))
  );
}

/** A failure's raw reason (a code, an HTTP status) behind a "Details" disclosure after the words of a status line. */
function addDetails(note: HTMLElement, detail: string | undefined): void {
  if (detail !== undefined && detail !== '') {
    note.append(h('details', {}, h('summary', {}, 'Details'), h('span', { class: 'ac-detail' }, detail)));
  }
}

function renderCheck(store: Store, render: () => void): void {
  const check = store.check;
  const note = byId('ac-check-status');
  const list = byId('ac-check-list');
  if (!check) {
    return;
  }
  const summary = summarize(check, store.signIn, store.touched);
  fill(list, ...summary.lines.map((line) => h('li', {}, line)));
  status(note, summary.kind, summary.text);
  addDetails(note, summary.detail);
  status(byId('ac-check-warnings-lead'), 'warn', summary.warnings.length > 0 ? WARNINGS_TEXT : '');
  fill(byId('ac-check-warnings'), ...summary.warnings.map((line) => h('li', {}, line)));
  renderFixes(check.fixes, (fix) => {
    store.set(applyKeyFix(store.block, fix));
    render();
    runCheck(store, render);
    return store.check?.fixes ?? [];
  });
  status(byId('ac-check-split'), 'info', store.splitNotes.get(store.index) ?? '');
  const webhookKept = check.kept.get('webhook');
  status(
    byId('ac-webhook-kept'),
    webhookKept === undefined ? 'info' : 'warn',
    webhookKept === undefined ? '' : `Kept as written: ${webhookKept}`,
  );
  // Save writes every entry: one edited here that would keep Save off on screen keeps it off, whichever is on screen.
  const others = othersText(
    [...store.edited].flatMap((index) => {
      const entry = store.entries[index];
      return index === store.index || entry === undefined ? [] : [{ name: entryName(store, index), check: checkBlock(entry, undefined) }];
    }),
  );
  status(byId('ac-check-others'), 'error', others);
  if (summary.saveOff || others !== '') {
    hb.disableSaveButton();
  } else {
    hb.enableSaveButton();
  }
}

/** The sign-in's status line and button, from where the sign-in stands for the entry on screen (Store.signInState). */
function showSignIn(store: Store): void {
  const note = byId('ac-sign-in-status');
  byId('ac-sign-in', HTMLButtonElement).disabled = store.signingIn;
  const line = signInLine(store.signInState, store.cachedDoors.length > 0);
  if (line === undefined) return;
  // Drawn again only when it says something else: a live region read out again at each keystroke would drown the page.
  const shown = JSON.stringify(line);
  if (note.dataset.shown === shown) return;
  note.dataset.shown = shown;
  status(note, line.kind, line.text);
  addDetails(note, line.detail);
}

/**
 * "Sign in" with the entry, address and token on screen. Its answer counts only while all three still are: an edit of
 * either field, or another entry chosen, meanwhile leaves it unanswered (said at once), so no "Signed in" and no doors
 * are ever shown for settings it did not try. True when its answer is shown.
 */
async function signIn(store: Store, render: () => void): Promise<boolean> {
  const ticket = store.beginSignIn();
  showSignIn(store);
  const result = await server.signIn(ticket.baseUrl, ticket.accessToken);
  if (!store.finishSignIn(ticket, result)) {
    showSignIn(store);
    return false;
  }
  showSignIn(store);
  render();
  runCheck(store, render);
  return true;
}

let checkTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * The plugin's own parser, bundled into the page, checks the block exactly as it will be saved: an edit asks the
 * settings server nothing, so the Homebridge UI logs no request for it. The doors "Sign in" read give the count the
 * entry would show.
 */
function runCheck(store: Store, render: () => void): void {
  // A check due after an edit is this one: run twice, it would draw the fixes and the summary again under the keyboard.
  clearTimeout(checkTimer);
  byId('ac-check').removeAttribute('aria-busy');
  // The account of this entry's own sign-in only (Store.account): the check names no other account's ids.
  store.check = checkBlock(store.block, store.account);
  renderCheck(store, render);
  refreshDoorStatus(store, render);
}

/** The keys the Homebridge UI holds of each entry (see uiUpdates). */
let uiKeys: Set<string>[] = [];

/**
 * Every change: the entries go to the Homebridge UI as they are (its Save writes them), then the plugin's parser checks
 * them. Each edit changed only its own value, so whatever the page cannot draw or does not know is saved as written.
 */
function onChange(store: Store, render: () => void): void {
  store.touched = true;
  showSignIn(store);
  for (const update of uiUpdates(store.entries, uiKeys)) void hb.updatePluginConfig(update);
  clearTimeout(checkTimer);
  // The summary is out of date until the check runs: assistive technology waits for it rather than read the old one.
  byId('ac-check').setAttribute('aria-busy', 'true');
  checkTimer = setTimeout(() => runCheck(store, render), CHECK_DELAY_MS);
}

/** An entry as the entries' list names it: its name, or the plugin's with its place. */
function entryName(store: Store, index: number): string {
  const name = store.entries[index]?.name;
  return typeof name === 'string' ? name : `${String(store.defaults.name)} ${index + 1}`;
}

function setUpEntries(store: Store, render: () => void): () => void {
  const section = byId('ac-entries-section');
  const select = byId('ac-entry', HTMLSelectElement);
  select.addEventListener('change', () => {
    // A sign-in still in flight was for the entry left: its answer will not count, and the last one answered speaks for
    // the entry it was made for only, even one with the same address and token: press Sign in for this one.
    store.showEntry(Number(select.value));
    showSignIn(store);
    render();
    runCheck(store, render);
  });
  return () => {
    section.hidden = store.entries.length < 2;
    fill(
      select,
      ...store.entries.map((_, index) => h('option', { value: String(index), selected: index === store.index }, entryName(store, index))),
    );
  };
}

const pathProblem = (path: string): string | undefined =>
  /^\/[^\s?#]*$/.test(path) ? undefined : 'A path starts with / and has no spaces, ? or #.';

async function main(): Promise<void> {
  hb.showSpinner();
  byId('ac-check-rule').textContent = `${PROTECTIVE_RULE} ${COULD_MEAN_RULE}`;
  const [entries, info] = await Promise.all([hb.getPluginConfig(), server.info()]);
  const store = new Store(entries, info);
  // No secret of any entry, however the service or the cache spells it, is drawn: not in a name, an entry, an error.
  const secrets = (): unknown[] => store.entries.flatMap((entry) => secretsOf(entry));
  redactAnswersWith(secrets);
  uiKeys = store.entries.map((entry) => new Set(Object.keys(entry)));
  store.cached = withoutSecretsIn(await cachedDoors(info.platform), secrets());
  const refreshers: (() => void)[] = [];
  const render = (): void => {
    for (const refresh of refreshers) {
      refresh();
    }
    renderDoors(store, render);
  };
  refreshers.push(
    setUpEntries(store, render),
    bindText(store, 'baseUrl'),
    bindText(store, 'accessToken'),
    bindNumber(store, 'webhook.port', { min: 1, max: 65535, unit: '' }),
    bindText(store, 'webhook.apiKey'),
    bindText(store, 'webhook.path', pathProblem),
    bindText(store, 'webhook.host'),
    bindText(store, 'webhook.headerName'),
    bindNumber(store, 'webhook.reconcileInterval', { min: MIN_RECONCILE_INTERVAL_S, max: optionSpec('pollInterval').max, unit: 'seconds' }),
    bindText(store, 'webhook.tlsCertFile'),
    bindText(store, 'webhook.tlsKeyFile'),
    // The options for all doors and the timing section, from the catalog; a door's choices name the value for all doors.
    ...setUpOptions(store, () => renderDoors(store, render)),
  );
  refreshers.push(setUpWebhook(store), setUpActivity(store, render));
  // After a sign-in the user asked for, the keyboard lands on its result (the button was disabled meanwhile, dropping
  // focus); one overtaken by an edit or another entry leaves the keyboard where the user took it.
  byId('ac-sign-in').addEventListener('click', () => {
    void signIn(store, render).then((shown) => {
      if (shown) byId('ac-sign-in-status').focus();
    });
  });
  store.onChange(() => onChange(store, render));
  render();
  hb.hideSpinner();
  runCheck(store, render);
  if (getField(store.block, 'baseUrl') !== undefined && getField(store.block, 'accessToken') !== undefined) {
    await signIn(store, render);
  }
}

function start(): void {
  main().catch((error: unknown) => {
    hb.hideSpinner();
    hb.toast.error(error instanceof Error ? error.message : String(error), 'Access Control settings');
  });
}

// The Homebridge UI shows the page and answers requests once it sent "ready".
if (document.body.style.display === 'block') {
  start();
} else {
  hb.addEventListener('ready', start, { once: true });
}
