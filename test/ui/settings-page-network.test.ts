// The plugin's settings page in the real Homebridge UI, where the network matters: webhooks answering the test event, a
// service that echoes the token or cannot be reached, and an account too large for one bridge (split from settings-page).
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { freePort } from '../../dev/harness/homebridge-process.js';
import { PLATFORM_NAME } from '../../src/settings.js';
import { AccessControlSimulator, makeDevice, makeDoor, SAMPLE_FRONT_GATE_ID, SAMPLE_GARAGE_DOOR_ID } from '../../dev/simulator/server.js';
import type { SimDevice } from '../../dev/simulator/server.js';
import { echoedSpellings, echoInAccount, secretLeaks } from '../support/secret-leaks.js';
import { startUiHarness } from './ui-harness.js';
import type { UiHarness } from './ui-harness.js';
import {
  DOOR_NAMES,
  doorsSet,
  harness,
  openDoorRows,
  openPage,
  PAGE_WAIT_MS,
  PLUGIN_LOG_TIMEOUT_MS,
  savedEntry,
  sim,
  statusOf,
  TOKEN,
  useSettingsPage,
  waitForAccepted,
  WEBHOOK_KEY,
  wordsOf,
} from './settings-page-kit.js';

useSettingsPage();

describe('the settings page and the network', () => {
  it("webhooks: the UI's own port is refused, a typed free port and key give a listener that answers the test event", async () => {
    await harness().setPlatforms([savedEntry()]);
    const { settings, page } = await openPage();
    // The account typed and signed in again, as a user does before turning webhooks on.
    await page.locator('#ac-baseUrl').fill(sim.baseUrl);
    await page.locator('#ac-accessToken').fill(TOKEN);
    await page.locator('#ac-sign-in').click();
    await expect.poll(() => statusOf(page, 'ac-sign-in-status').textContent(), { timeout: PAGE_WAIT_MS }).toMatch(/^Signed in: /);
    await page.locator('#ac-webhook-enabled').check();
    const uiPort = new URL(harness().url).port;
    await page.locator('#ac-webhook-port').fill(uiPort);
    await expect
      .poll(() => statusOf(page, 'ac-webhook-port-status').textContent(), { timeout: PAGE_WAIT_MS })
      .toMatch(/is the Homebridge UI's port: the listener would not start/);
    await page.locator('#ac-webhook-apiKey').fill('abc');
    await expect
      .poll(() => statusOf(page, 'ac-webhook-apiKey-status').textContent())
      .toBe('The API key has 96 characters; this one has 3.');
    await expect.poll(() => statusOf(page, 'ac-check-status').textContent(), { timeout: PAGE_WAIT_MS }).toMatch(/would ignore these parts/);
    expect(await settings.saveButton.isDisabled()).toBe(true);

    const port = await freePort();
    await page.locator('#ac-webhook-port').fill(String(port));
    await expect
      .poll(() => statusOf(page, 'ac-webhook-port-status').textContent(), { timeout: PAGE_WAIT_MS })
      .toBe(`Port ${port} is free.`);
    await page.locator('#ac-webhook-apiKey').fill(WEBHOOK_KEY);
    await page.locator('#ac-webhook-path').fill('/access-control');
    await expect
      .poll(() => page.locator('#ac-webhook-url').textContent())
      .toMatch(new RegExp(`forwards to .*http://[^ ]+:${port}/access-control`));
    await waitForAccepted(page);
    await page.locator('#ac-test-event').click();
    await expect
      .poll(() => statusOf(page, 'ac-test-event-status').textContent(), { timeout: PAGE_WAIT_MS })
      .toMatch(/^No listener answers on 127\.0\.0\.1:\d+\. Save, restart Homebridge/);

    const mark = harness().lineCount();
    const saved = await harness().save(settings, { restart: true });
    expect(saved.blocks[0]?.webhook).toEqual({ enabled: true, port, apiKey: WEBHOOK_KEY, path: '/access-control' });
    await harness().waitForLog(new RegExp(`Webhook listener on http://[^ ]+:${port}/access-control`), PLUGIN_LOG_TIMEOUT_MS, {
      fromLine: mark,
    });

    const reopened = await openPage();
    await reopened.page.locator('#ac-test-event').click();
    await expect
      .poll(() => statusOf(reopened.page, 'ac-test-event-status').textContent(), { timeout: PAGE_WAIT_MS })
      .toMatch(/answered 200 \{"message":"ok"\}, as this plugin's listener does when it takes the key/);
    await harness().waitForLog(/Webhook test from the settings page received/, PLUGIN_LOG_TIMEOUT_MS, { fromLine: mark });
    await expect
      .poll(() => statusOf(reopened.page, 'ac-webhook-port-status').textContent(), { timeout: PAGE_WAIT_MS })
      .toMatch(/most likely by this plugin's listener/);
    await harness().screenshot('settings-webhooks');
    // The test moved nothing: the simulator received no toggle.
    expect(sim.requests.filter((request) => request.path.includes('toggle') && request.method === 'POST')).toEqual([]);
    await reopened.settings.close();
  });

  it('never shows the token, with zero-width spaces inside, as a door name, a person or a channel (issue 44)', async () => {
    // An account of its own: the Homebridge the UI runs syncs the file's simulator, and would keep the echo in its cache.
    const echoing = new AccessControlSimulator({ accessToken: TOKEN });
    await echoing.start();
    // A zero-width space every few characters: no run of the token long enough to be found is left as written.
    const echoed = echoedSpellings(TOKEN)['with zero-width spaces'] ?? '';
    echoInAccount(echoing, SAMPLE_GARAGE_DOOR_ID, 'Garage', echoed);
    try {
      await harness().setPlatforms([{ platform: PLATFORM_NAME, baseUrl: echoing.baseUrl, accessToken: TOKEN }]);
      const { settings, page } = await openPage();
      // The rows of Homebridge's cache (the names it synced before) show first, the sign-in's account replaces them.
      await expect
        .poll(() => page.locator('[data-door-name]').allTextContents(), { timeout: PAGE_WAIT_MS })
        .toEqual(['Front Gate', 'Garage [redacted]', 'Shared Gate']);
      await page.locator('#ac-activity-load').click();
      await expect.poll(() => page.locator('#ac-activity-status').textContent(), { timeout: PAGE_WAIT_MS }).toMatch(/^Read the last/);
      expect(await page.locator('#ac-people label').allTextContents()).toContainEqual(expect.stringMatching(/^\[redacted\] Doe: 1 time/));
      expect(await page.locator(`[data-activity-row="${SAMPLE_GARAGE_DOOR_ID}"] li`).allTextContents()).toContainEqual(
        expect.stringMatching(/by \[redacted\] Doe, with App \[redacted\]$/),
      );
      // Nowhere on the page, folded parts included.
      expect(secretLeaks((await page.locator('body').textContent()) ?? '', TOKEN)).toEqual([]);
      await harness().screenshot('settings-token-echoed');
      await settings.close();
    } finally {
      await echoing.stop();
    }
  });

  it('when the service cannot be reached, says so and lists the doors Homebridge showed last, still editable', async () => {
    // Homebridge ran the plugin with these settings, so its cache holds the account's doors.
    await harness().setPlatforms([doorsSet()]);
    await harness().restartHomebridge();
    await expect
      .poll(async () => (await harness().cachedAccessories()).filter((accessory) => typeof accessory.context?.doorId === 'string').length, {
        timeout: PLUGIN_LOG_TIMEOUT_MS,
      })
      .toBe(DOOR_NAMES.length);
    sim.setFault('sync', { kind: 'refuse' });
    try {
      const { settings, page } = await openPage();
      await expect
        .poll(() => wordsOf(page, 'ac-sign-in-status'), { timeout: PAGE_WAIT_MS })
        .toMatch(/^Nothing answers at this address\. .+\. The doors below are the ones Homebridge showed last\.$/);
      // The cache keeps the service's names; the name the user gave shows in the door's "Name in Home".
      await expect.poll(() => page.locator('[data-door-name]').allTextContents()).toEqual(DOOR_NAMES);
      await openDoorRows(page);
      expect(await page.locator(`[data-door-row="${SAMPLE_FRONT_GATE_ID}"] input[data-field="name"]`).inputValue()).toBe('Street Gate');
      await page.locator(`[data-door-row="${SAMPLE_GARAGE_DOOR_ID}"] select[data-flag="contactSensor"]`).selectOption('inherit');
      // Not green: the summary says what saving now leads to, and Save stays possible.
      await expect
        .poll(() => wordsOf(page, 'ac-check-status'), { timeout: PAGE_WAIT_MS })
        .toMatch(/^Nothing answers at this address\. If you save these settings, the plugin keeps trying/);
      expect(await settings.saveButton.isDisabled()).toBe(false);
      await harness().screenshot('settings-service-unreachable');
      const saved = await harness().save(settings);
      expect(saved.blocks[0]?.doors).toEqual([{ id: SAMPLE_FRONT_GATE_ID, name: 'Street Gate' }]);
    } finally {
      sim.clearFaults();
    }
  });
});

describe('a large account in the settings page', () => {
  const CONTROLLERS = 20;
  const DOORS_PER_CONTROLLER = 8;
  let big: AccessControlSimulator;
  let bigUi: UiHarness | undefined;
  let devices: SimDevice[];

  beforeAll(async () => {
    devices = Array.from({ length: CONTROLLERS }, (_, d) =>
      makeDevice({
        doors: Array.from({ length: DOORS_PER_CONTROLLER }, (_, i) => makeDoor({ name: `Gate ${d}-${i}`, entityNumber: i + 1 })),
      }),
    );
    big = new AccessControlSimulator({ accessToken: TOKEN, devices });
    await big.start();
    bigUi = await startUiHarness({
      env: inject('uiEnv'),
      platforms: [{ platform: PLATFORM_NAME, baseUrl: big.baseUrl, accessToken: TOKEN }],
    });
  });

  afterAll(async () => {
    await bigUi?.stop();
    await big.stop();
  });

  it('counts the doors against the 149 a bridge holds, and splits the rest into a second entry for a child bridge', async () => {
    if (!bigUi) throw new Error('the UI did not start');
    const settings = await bigUi.openCustomUi();
    const page = settings.frame;
    await expect
      .poll(() => page.locator('#ac-count').textContent(), { timeout: PAGE_WAIT_MS })
      .toMatch(/^160 of 160 doors would show, but one bridge holds at most 149/);
    // 160 door cards start folded, so the rest of the page stays within reach.
    expect(await page.locator('#ac-door-list').getAttribute('open')).toBeNull();
    // Who came through is read for the 149 doors Home would show, not for the 11 the bridge's cap leaves out.
    await page.locator('#ac-activity-load').click();
    await expect.poll(() => page.locator('#ac-activity-status').textContent(), { timeout: PAGE_WAIT_MS }).not.toMatch(/^(Reading|$)/);
    expect(await page.locator('#ac-activity-rows > *').count()).toBe(149);
    const [first, second] = devices.map((device) => device.id);
    if (first === undefined || second === undefined) throw new Error('no controllers');
    await page.locator(`input[data-controller="${first}"]`).uncheck();
    await page.locator(`input[data-controller="${second}"]`).uncheck();
    await expect
      .poll(() => page.locator('#ac-count').textContent(), { timeout: PAGE_WAIT_MS })
      .toBe('144 of 160 doors will show in Home (one bridge holds at most 149).');
    await page.locator('#ac-split').click();
    await expect.poll(() => page.locator('#ac-entry option').allTextContents()).toEqual(['Access Control 1', 'Access Control 2']);
    await waitForAccepted(page);
    await bigUi.screenshot('settings-large-account-split');
    const saved = await bigUi.save(settings);
    expect(saved.blocks).toEqual([
      { platform: PLATFORM_NAME, baseUrl: big.baseUrl, accessToken: TOKEN, excludeDeviceIds: [first, second] },
      { platform: PLATFORM_NAME, baseUrl: big.baseUrl, accessToken: TOKEN, name: 'Access Control 2', includeDeviceIds: [first, second] },
    ]);
  });
});
