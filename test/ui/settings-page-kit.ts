// What the settings-page files share: the account, the page's waits, one UI per file, and the helpers that read the page.
import type { Frame } from 'playwright-core';
import { afterAll, beforeAll, expect, inject } from 'vitest';

import { PLATFORM_NAME } from '../../src/settings.js';
import { AccessControlSimulator, SAMPLE_FRONT_GATE_ID, SAMPLE_GARAGE_DOOR_ID } from '../../dev/simulator/server.js';
import { startUiHarness } from './ui-harness.js';
import type { CustomUiSettings, PlatformBlock, UiHarness } from './ui-harness.js';

/** Random-looking, as the service's are: a token made of words ("settings-page-…") is found, as it must be, in the test event's own type "settings_page_test". */
export const TOKEN = 'sp4b7f-e2e-9d31-token';
export const WEBHOOK_KEY = '9f3c'.repeat(24);
/** Waits inside the page: a sign-in against the local simulator, the page's own check of the settings. */
export const PAGE_WAIT_MS = 20_000;
/** The plugin's lines after Homebridge restarted with the saved block. */
export const PLUGIN_LOG_TIMEOUT_MS = 60_000;
export const DOOR_NAMES = ['Front Gate', 'Garage Door', 'Shared Gate'];
/** Edits in the request-count test: the token changed and typed back, in turns, each checked by the page before the next. */
export const EDITS = 10;

/** The file's simulator and UI, started by useSettingsPage(): live bindings, read once the hooks have run. */
export let sim: AccessControlSimulator;
let ui: UiHarness | undefined;

export function harness(): UiHarness {
  if (!ui) throw new Error('the UI did not start (see beforeAll)');
  return ui;
}

export async function openPage(): Promise<{ settings: CustomUiSettings; page: Frame }> {
  const settings = await harness().openCustomUi();
  await settings.frame.locator('#ac-sign-in').waitFor({ timeout: PAGE_WAIT_MS });
  // The button is in the HTML before the page's script runs; the check's first words come once its fields are wired, so
  // nothing typed before then is lost (seen on a busy machine: a sign-in with neither field).
  await expect.poll(() => settings.frame.locator('#ac-check-status').textContent(), { timeout: PAGE_WAIT_MS }).not.toBe('');
  return { settings, page: settings.frame };
}

export const statusOf = (page: Frame, id: string) => page.locator(`#${id}`);

/** A status line's words, without what its Details disclosure holds. */
export async function wordsOf(page: Frame, id: string): Promise<string> {
  const all = (await statusOf(page, id).textContent()) ?? '';
  const details = page.locator(`#${id} > details`);
  return (await details.count()) > 0 ? all.replace((await details.textContent()) ?? '', '') : all;
}
export const doorRows = (page: Frame) => page.locator('[data-door-row]');

/** Each door is a folded row: opens them all, as a user opens a door before changing its options. */
export async function openDoorRows(page: Frame): Promise<void> {
  for (const row of await doorRows(page).all()) {
    if ((await row.getAttribute('open')) === null) await row.locator('summary').click();
  }
}

export async function waitForAccepted(page: Frame): Promise<void> {
  await expect
    .poll(() => statusOf(page, 'ac-check-status').textContent(), { timeout: PAGE_WAIT_MS })
    .toMatch(/^The plugin accepts these settings/);
}

/** The account's entry as a test starts from it (each writes its own, so it passes alone as in its file): `more` added. */
export const savedEntry = (more: PlatformBlock = {}): PlatformBlock => ({
  platform: PLATFORM_NAME,
  baseUrl: sim.baseUrl,
  accessToken: TOKEN,
  ...more,
});
/** The entry as the per-door tests find it: Read-only on for all doors, Front Gate renamed, the garage door's contact sensor on. */
export const doorsSet = (): PlatformBlock =>
  savedEntry({
    readOnly: true,
    doors: [
      { id: SAMPLE_FRONT_GATE_ID, name: 'Street Gate' },
      { id: SAMPLE_GARAGE_DOOR_ID, contactSensor: true },
    ],
  });

/** The lines of the UI's log that tell a request the page sent its server, from line `from` on. */
export const requestLines = (from: number): string[] =>
  harness()
    .log()
    .split('\n')
    .slice(from)
    .filter((line) => line.includes('Incoming Request'));

/** One simulator, one Homebridge UI and its Homebridge for the file that calls it (at its top level), for all its tests. */
export function useSettingsPage(): void {
  beforeAll(async () => {
    sim = new AccessControlSimulator({ accessToken: TOKEN });
    await sim.start();
    ui = await startUiHarness({ env: inject('uiEnv') });
  });

  afterAll(async () => {
    await ui?.stop();
    await sim.stop();
  });
}
