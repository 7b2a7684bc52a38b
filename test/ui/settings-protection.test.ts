// The settings page in the real Homebridge UI 5.28 in Chromium (issues 49.5 and 52.3): a split carries every setting that
// protects the doors it moves; the page keeps what was typed (Save with the keyboard still in a field, a one-click fix in
// its place, a hand-written config.json); a row per door the plugin shows, named for screen readers, never ticked when a
// filter leaves it out; "Signed in" only for the entry tried; cached doors under their own entry; nothing cut or too small.
import type { Frame } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { makeDevice, makeDoor } from '../../dev/simulator/server.js';
import type { AccessControlSimulator } from '../../dev/simulator/server.js';
import { parseConfig } from '../../src/config/index.js';
import { doorOptions } from '../../src/config/door-options.js';
import { PLATFORM_NAME } from '../../src/settings.js';
import { OTHER_ENTRY_TEXT } from '../../src/ui/page/sign-in-line.js';
import { useSimulator } from '../support/simulator.js';
import { axeFaults, CLIPPED, SIDEWAYS, smallTargets } from './page-probes.js';
import { useUiHarness } from './ui-harness.js';
import type { CustomUiSettings, PlatformBlock } from './ui-harness.js';

/** Waits inside the page: a sign-in against the local simulator, the page's own check. */
const PAGE_WAIT_MS = 20_000;
/** Homebridge writes its accessory cache a moment after the plugin registers the doors. */
const CACHE_WAIT_MS = 60_000;
const TOKEN = 'settings-protection-token-41f7';
/** WCAG 2.5.5 and Apple's guideline: a touch target of at least 44 x 44 CSS px. */
const TARGET_PX = 44;
const PHONE = { width: 390, height: 844 };
/** The child bridge of the cache test: a port of its own per run, so parallel runs do not take each other's. */
const CHILD_BRIDGE_PORT = 52_000 + (process.pid % 1000);
const DESKTOP = { width: 1280, height: 900 };

const CTL_A = 'a1c0ffee-0000-4000-8000-00000000000a';
const CTL_B = 'b2c0ffee-0000-4000-8000-00000000000b';
const FRONT = 'f0d00001-1111-4111-8111-000000000001';
const SIDE = 'f0d00002-2222-4222-8222-000000000002';
/** Two doors whose ids differ only in case: two doors in Home, both read-only. */
const TWIN = 'C0DE0003-3333-4333-8333-0000000000AB';
const TWIN_LOWER = TWIN.toLowerCase();
const YARD = 'f0d00004-4444-4444-8444-000000000004';
const BACK = 'f0d00005-5555-4555-8555-000000000005';
const GARAGE = 'f0d00006-6666-4666-8666-000000000006';

const doorsOf = (doors: [string, string][]) => doors.map(([id, name], index) => makeDoor({ id, name, entityNumber: index + 1 }));
let sim: AccessControlSimulator;
useSimulator(
  {
    accessToken: TOKEN,
    devices: [
      makeDevice({
        id: CTL_A,
        doors: doorsOf([
          [FRONT, 'Front Gate'],
          [SIDE, 'Side Door'],
          [TWIN, 'Twin Upper'],
          [TWIN_LOWER, 'Twin Lower'],
        ]),
      }),
      makeDevice({
        id: CTL_B,
        doors: doorsOf([
          [YARD, 'Yard Gate'],
          [BACK, 'Back Door'],
          [GARAGE, 'Garage'],
        ]),
      }),
    ],
  },
  (started) => (sim = started),
);
const harness = useUiHarness();

/** One entry that protects controller B's doors three ways: a read-only entry, an exclusion and its switch off. */
const yard = (): PlatformBlock => ({
  platform: PLATFORM_NAME,
  name: 'Yard',
  baseUrl: sim.baseUrl,
  accessToken: TOKEN,
  automationSwitch: 'open',
  excludeDoorIds: [BACK],
  doors: [
    { id: YARD, readOnly: true },
    { id: GARAGE, automationSwitch: false },
    { id: FRONT, name: 'Street Gate' },
  ],
});

/** Writes `blocks` to config.json and opens the page on them, signed in (the first entry signs in by itself). */
async function openSignedIn(blocks: PlatformBlock[]): Promise<{ settings: CustomUiSettings; frame: Frame }> {
  await harness().setPlatforms(blocks);
  const settings = await harness().openCustomUi();
  const frame = settings.frame;
  await expect.poll(() => frame.locator('#ac-sign-in-status').textContent(), { timeout: PAGE_WAIT_MS }).toMatch(/^Signed in: /);
  return { settings, frame };
}

const row = (frame: Frame, doorId: string) => frame.locator(`[data-door-row="${doorId}"]`);

async function openRow(frame: Frame, doorId: string): Promise<void> {
  const list = frame.locator('#ac-door-list');
  if ((await list.getAttribute('open')) === null) await list.locator('summary').first().click();
  if ((await row(frame, doorId).getAttribute('open')) === null) await row(frame, doorId).locator('summary').click();
}

/** What the plugin makes of a door under a saved block: read-only, its switch, out of Home by a filter. */
function treatment(block: PlatformBlock | undefined, doorId: string, controllerId: string) {
  const parsed = parseConfig(block);
  if (!parsed.ok) throw new Error(parsed.problems.join('; '));
  const options = doorOptions(parsed.config, doorId, controllerId);
  const config = parsed.config;
  const out =
    config.excludeDoorIds.includes(doorId) ||
    config.excludeDeviceIds.includes(controllerId) ||
    (config.includeDeviceIds.length > 0 && !config.includeDeviceIds.includes(controllerId));
  return { readOnly: options.readOnly, automationSwitch: options.automationSwitch, out };
}

describe('the settings page never splits protection away', () => {
  it('"Add an entry for the rest" carries the read-only entry, the exclusion and the switch off of the doors it moves, and says so', async () => {
    const { settings, frame } = await openSignedIn([yard()]);
    await frame.locator(`input[data-controller="${CTL_B}"]`).uncheck();
    await frame.locator('#ac-split').click();
    await expect.poll(() => frame.locator('#ac-entry option').allTextContents()).toEqual(['Yard', 'Yard 2']);
    await expect
      .poll(() => frame.locator('#ac-check-split').textContent(), { timeout: PAGE_WAIT_MS })
      .toBe(
        'Made from "Yard" for the controller it leaves out, with the same settings for their doors. It carries 2 door ' +
          'entries (Read-only for 1, automation switch off for 1); 1 excluded door; Automation switch for all doors. ' +
          'Not carried: 1 door entry about doors that stay.',
      );
    await harness().screenshot('settings-protection-split');
    const saved = await harness().save(settings);
    expect(saved.blocks).toEqual([
      { ...yard(), excludeDeviceIds: [CTL_B] },
      // The same settings for the doors that moved; the door entry of one that stays is left behind.
      { ...yard(), name: 'Yard 2', doors: (yard().doors as object[]).slice(0, 2), includeDeviceIds: [CTL_B] },
    ]);
    // The plugin reads the doors that moved as the first entry did before: read-only, out of Home, switch off.
    for (const door of [YARD, BACK, GARAGE]) {
      expect(treatment(saved.blocks[1], door, CTL_B), door).toEqual(treatment(yard(), door, CTL_B));
    }
  });
});

describe('the settings page keeps what was typed', () => {
  it("saves a door's Name in Home typed with the keyboard still in the field", async () => {
    const { settings, frame } = await openSignedIn([yard()]);
    await openRow(frame, SIDE);
    const name = row(frame, SIDE).locator('input[data-field="name"]');
    await name.click();
    await name.pressSequentially('Kitchen Door');
    // Save at once: the field still has the keyboard (no Tab, no change event).
    expect(await frame.evaluate<string>(`document.activeElement.dataset.field || ''`)).toBe('name');
    const saved = await harness().save(settings);
    expect(JSON.stringify(saved.blocks)).toBe(
      JSON.stringify([{ ...yard(), doors: [...(yard().doors as object[]), { id: SIDE, name: 'Kitchen Door' }] }]),
    );
  });

  it('a hand-written config.json: "Write it as readOnly" keeps the key in its place, and Save changes nothing else', async () => {
    const hand: PlatformBlock = {
      platform: PLATFORM_NAME,
      name: 'Hand',
      ReadOnly: true,
      baseUrl: sim.baseUrl,
      accessToken: TOKEN,
      excludeDoorIds: [424242],
      doors: { id: FRONT, name: 'Street Gate' },
      'my own note': 'keep me',
    };
    const other: PlatformBlock = {
      platform: PLATFORM_NAME,
      name: 'Other bridge',
      baseUrl: sim.baseUrl,
      accessToken: `${TOKEN}-other`,
      _bridge: { username: '0E:2A:3B:4C:5D:6E', port: 51999 },
    };
    const { settings, frame } = await openSignedIn([hand, other]);
    await frame.locator('#ac-check-fixes button', { hasText: 'Write it as readOnly' }).click();
    await expect.poll(() => frame.locator('#ac-check-fixes button').count(), { timeout: PAGE_WAIT_MS }).toBe(0);
    const saved = await harness().save(settings);
    // Key for key, in order: readOnly where ReadOnly was, every other value of both entries as written.
    const fixed = Object.fromEntries(Object.entries(hand).map(([key, value]) => (key === 'ReadOnly' ? ['readOnly', value] : [key, value])));
    expect(JSON.stringify(saved.blocks)).toBe(JSON.stringify([fixed, other]));
  });

  it('Eve history (on unless set): ticked for all doors, "As for all (on)" per door; one door set Off saves false for it alone', async () => {
    const { page } = harness().browser;
    await page.setViewportSize(PHONE);
    try {
      const { settings, frame } = await openSignedIn([yard()]);
      expect(await frame.locator('#ac-eveHistory').isChecked()).toBe(true);
      await openRow(frame, SIDE);
      const eve = row(frame, SIDE).locator('select[data-flag="eveHistory"]');
      expect(await eve.inputValue()).toBe('inherit');
      expect(await eve.locator('option:checked').textContent()).toBe('As for all (on)');
      await eve.selectOption('off');
      await expect.poll(() => row(frame, SIDE).locator('[data-door-changes]').textContent(), { timeout: PAGE_WAIT_MS }).toBe('1 change');
      await harness().screenshot('settings-protection-eve-history-phone');
      const saved = await harness().save(settings);
      // That door's entry alone, written as the plugin reads it; nothing written for all doors, every other value as written.
      expect(JSON.stringify(saved.blocks)).toBe(
        JSON.stringify([{ ...yard(), doors: [...(yard().doors as object[]), { id: SIDE, eveHistory: false }] }]),
      );
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  });
});

describe('the door rows say what the plugin does', () => {
  it('a row per door Home shows (case twins two, both read-only), a filtered-out door never ticked, names in accessible names', async () => {
    const { page } = harness().browser;
    await page.setViewportSize(DESKTOP);
    const { frame } = await openSignedIn([yard()]);
    await expect.poll(() => frame.locator('#ac-count').textContent(), { timeout: PAGE_WAIT_MS }).toMatch(/^6 of 7 doors will show in Home/);
    expect(await frame.locator('[data-door-row]').count()).toBe(7);
    for (const twin of [TWIN, TWIN_LOWER]) {
      expect(await row(frame, twin).locator('[data-door-note]').textContent()).toMatch(/^Read-only until a setting is fixed/);
    }
    await openRow(frame, BACK);
    const back = frame.getByRole('checkbox', { name: 'Show in Home: Back Door' });
    expect(await back.isChecked()).toBe(false);
    expect(await back.isDisabled()).toBe(true);
    expect(await row(frame, BACK).locator('[data-door-note]').textContent()).toMatch(/^Not in Home: /);
    await openRow(frame, YARD);
    expect(await frame.getByRole('checkbox', { name: 'Show in Home: Yard Gate' }).isChecked()).toBe(true);
    expect(await frame.getByRole('button', { name: 'Back to all-doors settings for Yard Gate' }).count()).toBe(1);
    // The controllers in words, the id second and apart: "(id a1c0…)", never "(ida1c0…)".
    expect(await frame.locator(`label[for="ac-controller-${CTL_A}"]`).innerText()).toContain(`(id ${CTL_A})`);
    // At 1280 px no field, placeholder or choice is cut; light and dark, axe finds nothing serious.
    expect(await frame.evaluate<string[]>(CLIPPED)).toEqual([]);
    expect(await axeFaults(frame)).toEqual([]);
    await harness().screenshot('settings-protection-rows');
    // Dark: the UI tells the settings frame its theme when the frame loads.
    await page.emulateMedia({ colorScheme: 'dark' });
    try {
      const dark = (await openSignedIn([yard()])).frame;
      await expect.poll(() => dark.locator('body.dark-mode').count(), { timeout: PAGE_WAIT_MS }).toBe(1);
      await openRow(dark, BACK);
      await openRow(dark, YARD);
      expect(await axeFaults(dark)).toEqual([]);
      await harness().screenshot('settings-protection-rows-dark');
    } finally {
      await page.emulateMedia({ colorScheme: 'light' });
    }
    // On a phone: 44 px targets, nothing sideways, nothing cut.
    await page.setViewportSize(PHONE);
    try {
      const phone = (await openSignedIn([yard()])).frame;
      await openRow(phone, BACK);
      await openRow(phone, YARD);
      expect(await phone.evaluate<string[]>(smallTargets(TARGET_PX))).toEqual([]);
      expect(await phone.evaluate<number>(SIDEWAYS)).toBe(0);
      expect(await phone.evaluate<string[]>(CLIPPED)).toEqual([]);
      await harness().screenshot('settings-protection-rows-phone');
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  });

  it('"Signed in" only for the entry that signed in: not for another with the same address and token', async () => {
    const { frame } = await openSignedIn([yard(), { ...yard(), name: 'Yard copy' }]);
    await frame.locator('#ac-entry').selectOption('1');
    await expect.poll(() => frame.locator('#ac-sign-in-status').textContent()).toBe(OTHER_ENTRY_TEXT);
    expect(await frame.locator('#ac-controllers input').count()).toBe(0);
  });

  it("lists Homebridge's cached doors under the entry that showed them only", async () => {
    // Back on its own child bridge, first: Homebridge refuses a second copy of a platform in one bridge, and a child
    // bridge's entry listed after the main bridge's copy.
    const entries = [
      {
        platform: PLATFORM_NAME,
        name: 'Back',
        baseUrl: sim.baseUrl,
        accessToken: TOKEN,
        includeDeviceIds: [CTL_B],
        _bridge: { username: '0E:AC:49:05:52:03', port: CHILD_BRIDGE_PORT },
      },
      { platform: PLATFORM_NAME, name: 'Front', baseUrl: sim.baseUrl, accessToken: TOKEN, includeDeviceIds: [CTL_A] },
    ];
    await harness().setPlatforms(entries);
    await harness().restartHomebridge();
    const marked = async () =>
      (await harness().cachedAccessories())
        .map((accessory) => `${String(accessory.context?.entry)} ${String(accessory.context?.doorId)}`)
        .sort();
    await expect
      .poll(marked, { timeout: CACHE_WAIT_MS })
      .toEqual([...[FRONT, SIDE, TWIN, TWIN_LOWER].map((id) => `Front ${id}`), ...[YARD, BACK, GARAGE].map((id) => `Back ${id}`)].sort());
    // The token refused: the page lists the cache, each entry its own doors.
    await harness().setPlatforms(entries.map((entry) => ({ ...entry, accessToken: `${TOKEN}-refused` })));
    const settings = await harness().openCustomUi();
    const frame = settings.frame;
    const rowIds = async () =>
      (await Promise.all((await frame.locator('[data-door-row]').all()).map((each) => each.getAttribute('data-door-row')))).sort();
    await expect.poll(rowIds, { timeout: PAGE_WAIT_MS }).toEqual([YARD, BACK, GARAGE].sort());
    await frame.locator('#ac-entry').selectOption('1');
    await expect.poll(rowIds, { timeout: PAGE_WAIT_MS }).toEqual([FRONT, SIDE, TWIN, TWIN_LOWER].sort());
    await harness().screenshot('settings-protection-cached');
  });
});
