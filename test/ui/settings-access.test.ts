// The settings page where users are: the real Homebridge UI 5.28 in Chromium at 1280 px and on a phone (390 x 844), in light
// and dark, checked by axe-core; a 60-door account as short rows with search, "changed only" and "back to all-doors settings",
// and its "People and activity" read 4 doors at a time, folded.
import type { Frame, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { makeDevice, makeDoor } from '../../dev/simulator/server.js';
import type { AccessControlSimulator } from '../../dev/simulator/server.js';
import type { SimDevice } from '../../dev/simulator/server.js';
import { ACTIVITY_DAYS, PLATFORM_NAME } from '../../src/settings.js';
import { useSimulator } from '../support/simulator.js';
import { axeFaults, FOCUS_ON_RESULT, FOCUS_RING, LANG, ROW_HEIGHTS, SIDEWAYS, smallTargets } from './page-probes.js';
import { useUiHarness } from './ui-harness.js';
import type { CustomUiSettings } from './ui-harness.js';

const TOKEN = 'tok-815f208a3fb9';
/** Waits inside the page: a sign-in against the local simulator, a check by the page's server. */
const PAGE_WAIT_MS = 20_000;
const CONTROLLERS = 10;
const DOORS_PER_CONTROLLER = 6;
/** The one controller not owned by the signed-in user: found by its owner's name. */
const OTHER_OWNER = { ownerUserId: 'f1b2c3d4-0000-4000-8000-000000000001', ownerFirstName: 'Grace', ownerLastName: 'Hopper' };
/** WCAG 2.5.5 (AAA) and Apple's guideline: a touch target of at least 44 x 44 CSS px. */
const TARGET_PX = 44;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
/** A folded door row is one or two lines: the name, its state and what it changes. */
const SHORT_ROW_PX = 100;

const devices: SimDevice[] = Array.from({ length: CONTROLLERS }, (_, d) =>
  makeDevice({
    ...(d === CONTROLLERS - 1 ? OTHER_OWNER : {}),
    doors: Array.from({ length: DOORS_PER_CONTROLLER }, (_, i) => makeDoor({ name: `Gate ${d}-${i}`, entityNumber: i + 1 })),
  }),
);
let sim: AccessControlSimulator;
useSimulator({ accessToken: TOKEN, devices }, (started) => (sim = started));
const harness = useUiHarness();

/** How far the page and the settings frame scroll sideways (0: not at all). */
async function sidewaysScroll(page: Page, frame: Frame): Promise<{ page: number; frame: number }> {
  return { page: await page.evaluate<number>(SIDEWAYS), frame: await frame.evaluate<number>(SIDEWAYS) };
}

const visibleRows = (frame: Frame) => frame.locator('[data-door-row]:visible');

/** The settings opened, signed in by typing the address and token: all 60 doors listed. */
async function signedInAll(): Promise<CustomUiSettings> {
  const settings = await harness().openCustomUi();
  const frame = settings.frame;
  // The check's first words come once the page's fields are wired: nothing typed before then is lost.
  await expect.poll(() => frame.locator('#ac-check-status').textContent(), { timeout: PAGE_WAIT_MS }).not.toBe('');
  await frame.locator('#ac-baseUrl').fill(sim.baseUrl);
  await frame.locator('#ac-accessToken').fill(TOKEN);
  await frame.locator('#ac-sign-in').click();
  await expect.poll(() => frame.locator('[data-door-row]').count(), { timeout: PAGE_WAIT_MS }).toBe(60);
  return settings;
}

describe('the settings page for every user', () => {
  it('has no serious or critical axe fault signed out, after a refused sign-in and signed in; fits a phone; sign-in keeps the keyboard', async () => {
    await harness().setPlatforms([]);
    const { page } = harness().browser;
    const settings = await harness().openCustomUi();
    const frame = settings.frame;
    await frame.locator('#ac-sign-in').waitFor({ timeout: PAGE_WAIT_MS });
    await expect
      .poll(() => frame.locator('#ac-check-status').textContent(), { timeout: PAGE_WAIT_MS })
      .toBe('Type the Service address and Access token, then press Sign in.');

    // Signed out: one h1, a main landmark, the language set; axe finds nothing serious, light or dark.
    expect(await frame.locator('h1').count()).toBe(1);
    expect(await frame.locator('main').count()).toBe(1);
    expect(await frame.evaluate<string>(LANG)).toBe('en');
    expect(await axeFaults(frame)).toEqual([]);

    // A refused sign-in: the answer is in a live region.
    await frame.locator('#ac-baseUrl').fill(sim.baseUrl);
    await frame.locator('#ac-accessToken').fill('not-the-token');
    await frame.locator('#ac-sign-in').click();
    await expect
      .poll(() => frame.locator('#ac-sign-in-status').textContent(), { timeout: PAGE_WAIT_MS })
      .toMatch(/refused the access token/);
    expect(await frame.locator('#ac-sign-in-status').getAttribute('role')).toMatch(/^(status|alert)$/);
    expect(await axeFaults(frame)).toEqual([]);

    // On a phone, signed in by keyboard: the focus lands on the result (or the door list), not on the page's body.
    await page.setViewportSize(PHONE);
    await frame.locator('#ac-accessToken').fill(TOKEN);
    await frame.locator('#ac-sign-in').focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => frame.locator('#ac-sign-in-status').textContent(), { timeout: PAGE_WAIT_MS })
      .toMatch(/^Signed in: 10 controllers, 60 doors/);
    await expect.poll(() => frame.evaluate<boolean>(FOCUS_ON_RESULT)).toBe(true);
    // A visible focus ring: 3 px of #0a58ca, 6:1 against the light theme's white.
    expect(await frame.evaluate<string>(FOCUS_RING)).toBe('solid 3px rgb(10, 88, 202)');
    await page.keyboard.press('Tab');
    expect(await frame.evaluate<string>(FOCUS_RING)).toBe('solid 3px rgb(10, 88, 202)');
    await harness().screenshot('settings-phone-signed-in');

    // The folded section with the Matter choice, by keyboard alone: Enter opens it, the arrow keys change the choice.
    await frame.locator('#ac-timing-section > summary').focus();
    await page.keyboard.press('Enter');
    await frame.locator('#ac-matter').focus();
    expect(await frame.evaluate<string>(FOCUS_RING)).toBe('solid 3px rgb(10, 88, 202)');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => frame.locator('#ac-matter').inputValue()).toBe('sensors');
    await harness().screenshot('settings-phone-matter');
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => frame.locator('#ac-matter').inputValue()).toBe('off');

    // Every control with its label is a 44 x 44 target, with the door list, one door and the timing section open;
    // nothing scrolls sideways.
    const list = frame.locator('#ac-door-list');
    if ((await list.getAttribute('open')) === null) await list.locator('summary').first().click();
    await frame.locator('[data-door-row] > summary').first().click();
    expect(await frame.evaluate<string[]>(smallTargets(TARGET_PX))).toEqual([]);
    expect(await sidewaysScroll(page, frame)).toEqual({ page: 0, frame: 0 });
    expect(await axeFaults(frame)).toEqual([]);
    await page.setViewportSize(DESKTOP);
    expect(await axeFaults(frame)).toEqual([]);
    await settings.close();
  });

  it('in the dark theme too: signed out, after a refused sign-in and signed in', async () => {
    await harness().setPlatforms([]);
    const { page } = harness().browser;
    // The UI follows the browser's colour scheme and tells the settings frame when it loads.
    await page.emulateMedia({ colorScheme: 'dark' });
    try {
      const settings = await harness().openCustomUi();
      const frame = settings.frame;
      await expect.poll(() => frame.locator('body.dark-mode').count(), { timeout: PAGE_WAIT_MS }).toBe(1);
      await expect
        .poll(() => frame.locator('#ac-check-status').textContent(), { timeout: PAGE_WAIT_MS })
        .toBe('Type the Service address and Access token, then press Sign in.');
      expect(await axeFaults(frame)).toEqual([]);
      await frame.locator('#ac-baseUrl').fill(sim.baseUrl);
      await frame.locator('#ac-accessToken').fill('not-the-token');
      await frame.locator('#ac-sign-in').click();
      await expect
        .poll(() => frame.locator('#ac-sign-in-status').textContent(), { timeout: PAGE_WAIT_MS })
        .toMatch(/refused the access token/);
      expect(await axeFaults(frame)).toEqual([]);
      await frame.locator('#ac-accessToken').fill(TOKEN);
      await frame.locator('#ac-sign-in').click();
      await expect.poll(() => frame.locator('[data-door-row]').count(), { timeout: PAGE_WAIT_MS }).toBe(60);
      const list = frame.locator('#ac-door-list');
      if ((await list.getAttribute('open')) === null) await list.locator('summary').first().click();
      await frame.locator('[data-door-row] > summary').first().click();
      await frame.locator('#ac-timing-section > summary').click();
      await frame.locator('#ac-door-search').focus();
      // The ring in the dark theme: #8bb9fe, 7:1 against its grey.
      expect(await frame.evaluate<string>(FOCUS_RING)).toBe('solid 3px rgb(139, 185, 254)');
      await harness().screenshot('settings-dark-signed-in');
      expect(await axeFaults(frame)).toEqual([]);
      await settings.close();
    } finally {
      await page.emulateMedia({ colorScheme: 'light' });
    }
  });

  it('a 60-door account is short rows; search finds a door by name and by controller, "changed only" and "back to all-doors" work', async () => {
    await harness().setPlatforms([]);
    const { page } = harness().browser;
    await page.setViewportSize(PHONE);
    const settings = await signedInAll();
    const frame = settings.frame;
    const list = frame.locator('#ac-door-list');
    if ((await list.getAttribute('open')) === null) await list.locator('summary').first().click();

    // Folded: each door is one short row, its options out of sight until it is opened.
    expect(await visibleRows(frame).count()).toBe(60);
    const heights = await frame.evaluate<number[]>(ROW_HEIGHTS);
    expect(heights.filter((height) => height > SHORT_ROW_PX)).toEqual([]);
    expect(await frame.locator('[data-door-row] select:visible').count()).toBe(0);

    // By name.
    const search = frame.locator('#ac-door-search');
    await search.fill('gate 3-4');
    await expect.poll(() => visibleRows(frame).locator('[data-door-name]').allTextContents()).toEqual(['Gate 3-4']);
    expect(await frame.locator('#ac-door-found').textContent()).toBe('1 of 60 doors shown.');
    // By controller: its owner's name, and its id.
    await search.fill('Hopper');
    await expect
      .poll(() => visibleRows(frame).locator('[data-door-name]').allTextContents())
      .toEqual(Array.from({ length: DOORS_PER_CONTROLLER }, (_, i) => `Gate ${CONTROLLERS - 1}-${i}`));
    await search.fill(devices[2]?.id ?? 'no controller');
    await expect.poll(() => visibleRows(frame).count()).toBe(DOORS_PER_CONTROLLER);
    await search.fill('');
    await expect.poll(() => visibleRows(frame).count()).toBe(60);

    // One door gets a setting of its own: its row says so, and "changed only" shows only it.
    const door = devices[4]?.doors[2];
    if (!door) throw new Error('no door');
    const row = frame.locator(`[data-door-row="${door.id}"]`);
    await row.locator('summary').click();
    await row.locator('select[data-flag="readOnly"]').selectOption('on');
    await expect.poll(() => row.locator('[data-door-changes]').textContent(), { timeout: PAGE_WAIT_MS }).toBe('1 change');
    await frame.locator('#ac-door-changed').check();
    await expect.poll(() => visibleRows(frame).locator('[data-door-name]').allTextContents()).toEqual([door.name]);
    await harness().screenshot('settings-phone-changed-only');

    // Back to all-doors settings: the door's own entry is gone from what Save writes.
    await row.locator('[data-door-reset]').click();
    await expect.poll(() => row.locator('[data-door-changes]').textContent()).toBe('as for all doors');
    expect(await row.locator('select[data-flag="readOnly"]').inputValue()).toBe('inherit');
    await frame.locator('#ac-door-changed').uncheck();
    await expect
      .poll(() => frame.locator('#ac-check-status').textContent(), { timeout: PAGE_WAIT_MS })
      .toMatch(/^The plugin accepts these settings/);
    const saved = await harness().save(settings);
    expect(saved.blocks).toEqual([{ platform: PLATFORM_NAME, baseUrl: sim.baseUrl, accessToken: TOKEN }]);
  });
  it('"People and activity" on a 60-door account: each door read once, the activity folded per door, 44 px targets and no axe fault', async () => {
    await harness().setPlatforms([]);
    const { page } = harness().browser;
    await page.setViewportSize(PHONE);
    const first = devices[0]?.doors[0];
    if (!first) throw new Error('no door');
    sim.addHistoryEvent({ doorId: first.id, doorState: 'OPEN', at: new Date(), channel: 'Keypad', wasSuccess: false });
    // The same person at six more doors: their line names five and counts the rest.
    for (const door of [...(devices[0]?.doors.slice(1) ?? []), ...(devices[1]?.doors.slice(0, 1) ?? [])]) {
      sim.addHistoryEvent({ doorId: door.id, doorState: 'CLOSED', at: new Date(Date.now() - 60_000), channel: 'App' });
    }
    try {
      const settings = await signedInAll();
      const frame = settings.frame;
      const mark = sim.requests.length;
      await frame.locator('#ac-activity-load').click();
      await expect
        .poll(() => frame.locator('#ac-activity-status').textContent(), { timeout: 3 * PAGE_WAIT_MS })
        .toBe(`Read the last ${ACTIVITY_DAYS} days of 60 doors: 7 entries, 1 refused.`);
      expect(await frame.locator('#ac-people label').allTextContents()).toEqual([
        'Ada Lovelace: 7 times, 1 refused, at Gate 0-0, Gate 0-1, Gate 0-2, Gate 0-3, Gate 0-4 and 2 more doors',
      ]);
      const asked = sim.requests.slice(mark).filter((request) => request.path.includes('toggle-history'));
      expect(new Set(asked.map((request) => request.query.door_id)).size).toBe(60);
      expect(asked).toHaveLength(60);
      // Folded: one short row per door, the list itself closed until opened.
      expect(await frame.locator('#ac-activity-list').getAttribute('open')).toBeNull();
      await frame.locator('#ac-activity-list > summary').click();
      expect(await frame.locator('[data-activity-row]:visible').count()).toBe(60);
      expect(await frame.locator('.ac-activity li:visible').count()).toBe(0);
      await frame.locator(`[data-activity-row="${first.id}"] > summary`).click();
      expect(await frame.locator(`[data-activity-row="${first.id}"] li`).textContent()).toMatch(
        /Refused: Ada Lovelace tried to open it, with Keypad$/,
      );
      expect(await frame.evaluate<string[]>(smallTargets(TARGET_PX))).toEqual([]);
      expect(await axeFaults(frame)).toEqual([]);
      await harness().screenshot('settings-phone-activity-60-doors');
      await settings.close();
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  });
});
