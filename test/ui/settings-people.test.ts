// "People and activity" in the real Homebridge UI with Chromium, against the simulator: each door's last days with who, how and
// the refused attempts, a tick per person that writes exactly their `people` entry, a phone, the dark theme and a service refusing.
import type { Frame } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import {
  AccessControlSimulator,
  SAMPLE_FRONT_GATE_ID,
  SAMPLE_GARAGE_DOOR_ID,
  SAMPLE_PEOPLE,
  SAMPLE_SHARED_GATE_ID,
} from '../../dev/simulator/server.js';
import type { SimUser } from '../../dev/simulator/server.js';
import { PLATFORM_NAME } from '../../src/settings.js';
import { activityDays } from '../../src/ui/server/activity.js';
import { axeFaults, SIDEWAYS, smallTargets } from './page-probes.js';
import { startUiHarness } from './ui-harness.js';
import type { CustomUiSettings, PlatformBlock, UiHarness } from './ui-harness.js';

const TOKEN = 'tok-3a9c5e81d20f';
/** Waits inside the page: a sign-in and the history reads against the local simulator. */
const PAGE_WAIT_MS = 20_000;
/** WCAG 2.5.5 (AAA) and Apple's guideline: a touch target of at least 44 x 44 CSS px. */
const TARGET_PX = 44;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const MINUTE_MS = 60_000;

/** Two people the service names alike: the page tells them apart by their e-mails, and only them. */
const ALEX_KIM: SimUser = { id: 'a1', firstName: 'Alex', lastName: 'Kim', emailAddress: 'alex.kim@example.com' };
const OTHER_ALEX_KIM: SimUser = { id: 'a2', firstName: 'Alex', lastName: 'Kim', emailAddress: 'akim@example.org' };
/** Someone seen 200 times at one door: the counts must cover every entry, not only the newest 50 shown. */
const KATHERINE: SimUser = { id: 'k1', firstName: 'Katherine', lastName: 'Johnson', emailAddress: 'katherine@example.com' };

/** The block as config.json holds it before the page: a person already listed, and keys the page must leave as written. */
const WRITTEN: PlatformBlock = {
  platform: PLATFORM_NAME,
  name: 'Gates',
  pollInterval: 45,
  people: [{ name: 'Alan', user: 'Alan@Example.com' }],
};

let sim: AccessControlSimulator;
let ui: UiHarness | undefined;
let written: PlatformBlock;

function harness(): UiHarness {
  if (!ui) throw new Error('the UI did not start (see beforeAll)');
  return ui;
}

const personBox = (frame: Frame, email: string) => frame.locator(`#ac-people input[data-person="${email}"]`);

/** Opens the settings (signed in by itself: the block has the address and token), then reads the doors' activity. */
async function openActivity(): Promise<{ settings: CustomUiSettings; frame: Frame }> {
  const settings = await harness().openCustomUi();
  const frame = settings.frame;
  await expect
    .poll(() => frame.locator('#ac-sign-in-status').textContent(), { timeout: PAGE_WAIT_MS })
    .toMatch(/^Signed in: 2 controllers, 3 doors/);
  await frame.locator('#ac-activity-load').click();
  await expect
    .poll(() => frame.locator('#ac-activity-status').textContent(), { timeout: PAGE_WAIT_MS })
    .toMatch(/^(Read the last 7 days|The history)/);
  return { settings, frame };
}

async function waitForAccepted(frame: Frame): Promise<void> {
  await expect
    .poll(() => frame.locator('#ac-check-status').textContent(), { timeout: PAGE_WAIT_MS })
    .toMatch(/^The plugin accepts these settings/);
}

beforeAll(async () => {
  sim = new AccessControlSimulator({ accessToken: TOKEN });
  await sim.start();
  const now = Date.now();
  const add = (
    doorId: string,
    minutesAgo: number,
    user: SimUser,
    channel: string,
    wasSuccess = true,
    doorState: 'OPEN' | 'CLOSED' = 'OPEN',
  ) => sim.addHistoryEvent({ doorId, doorState, at: new Date(now - minutesAgo * MINUTE_MS), channel, user, wasSuccess });
  add(SAMPLE_FRONT_GATE_ID, 90, SAMPLE_PEOPLE.grace, 'Keypad');
  add(SAMPLE_FRONT_GATE_ID, 60, SAMPLE_PEOPLE.alan, 'App', false);
  add(SAMPLE_FRONT_GATE_ID, 30, ALEX_KIM, 'Remote', true, 'CLOSED');
  add(SAMPLE_GARAGE_DOOR_ID, 20, OTHER_ALEX_KIM, 'Keypad');
  add(SAMPLE_GARAGE_DOOR_ID, 10, SAMPLE_PEOPLE.grace, 'App', true, 'CLOSED');
  written = { ...WRITTEN, baseUrl: sim.baseUrl, accessToken: TOKEN };
  ui = await startUiHarness({ env: inject('uiEnv'), platforms: [written] });
});

afterAll(async () => {
  await ui?.stop();
  await sim.stop();
});

describe('People and activity', () => {
  it("shows each door's last days newest first, with who, how and the refused attempt in words; the people seen with their ticks", async () => {
    await harness().setPlatforms([written]);
    const mark = sim.requests.length;
    const { settings, frame } = await openActivity();
    expect(await frame.locator('#ac-activity-status').textContent()).toBe('Read the last 7 days of 3 doors: 5 entries, 1 refused.');
    // One history request per door, the 7 days' (the plugin's own lookups in Homebridge ask for a shorter span).
    const asked = sim.requests
      .slice(mark)
      .filter((request) => request.path.includes('toggle-history') && request.query.start_date === activityDays(Date.now()).startDate);
    expect(asked.map((request) => request.query.door_id).sort()).toEqual(
      [SAMPLE_FRONT_GATE_ID, SAMPLE_GARAGE_DOOR_ID, SAMPLE_SHARED_GATE_ID].sort(),
    );
    const front = frame.locator(`[data-activity-row="${SAMPLE_FRONT_GATE_ID}"]`);
    expect(await front.locator('[data-activity-note]').textContent()).toBe('3 entries, 1 refused');
    if ((await front.getAttribute('open')) === null) await front.locator(':scope > summary').click();
    const items = (await front.locator('li').allTextContents()).map((text) => text.replace(/^.*? · /, ''));
    expect(items).toEqual([
      'Closed by Alex Kim (alex.kim@example.com), with Remote',
      'Refused: Alan Turing tried to open it, with App',
      'Opened by Grace Hopper, with Keypad',
    ]);
    expect(await front.locator('li[data-outcome="refused"] strong').textContent()).toBe('Refused:');
    expect(await frame.locator(`[data-activity-row="${SAMPLE_SHARED_GATE_ID}"] [data-activity-note]`).textContent()).toBe(
      'no activity in the last 7 days',
    );

    // The people: most seen first; e-mails only for the two Alex Kims; Alan ticked, listed before the page by his e-mail.
    const labels = await frame.locator('#ac-people label').allTextContents();
    expect(labels).toEqual([
      'Grace Hopper: 2 times, at Front Gate, Garage Door',
      'Alan Turing: 1 time, 1 refused, at Front Gate',
      'Alex Kim (akim@example.org): 1 time, at Garage Door',
      'Alex Kim (alex.kim@example.com): 1 time, at Front Gate',
    ]);
    // The service's names, each isolated: a direction mark in one cannot reverse the page's words around it.
    expect(await frame.locator('#ac-people label').first().locator('bdi').allTextContents()).toEqual([
      'Grace Hopper',
      'Front Gate',
      'Garage Door',
    ]);
    expect(await front.locator('.ac-door-name bdi').textContent()).toBe('Front Gate');
    expect(await personBox(frame, 'alan@example.com').isChecked()).toBe(true);
    expect(await personBox(frame, 'grace@example.com').isChecked()).toBe(false);

    // One tick, then Save: config.json holds that entry added, and nothing else changed.
    await personBox(frame, 'grace@example.com').check();
    await waitForAccepted(frame);
    const saved = await harness().save(settings);
    expect(saved.blocks).toEqual([
      { ...written, people: [...(written.people as unknown[]), { name: 'Grace Hopper', user: 'grace@example.com' }] },
    ]);
  });

  it('a person listed shows ticked on the next visit; untick and Save take exactly their entry out again', async () => {
    // As the tick of the test before saved it: Grace listed after Alan.
    await harness().setPlatforms([
      { ...written, people: [...(written.people as unknown[]), { name: 'Grace Hopper', user: 'grace@example.com' }] },
    ]);
    const { settings, frame } = await openActivity();
    expect(await personBox(frame, 'grace@example.com').isChecked()).toBe(true);
    await personBox(frame, 'grace@example.com').uncheck();
    await waitForAccepted(frame);
    const saved = await harness().save(settings);
    expect(saved.blocks).toEqual([written]);
  });

  it('fits a phone with 44 px targets, keeps the keyboard on the result, and axe finds nothing, light and dark', async () => {
    await harness().setPlatforms([written]);
    const { page } = harness().browser;
    await page.setViewportSize(PHONE);
    try {
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        const settings = await harness().openCustomUi();
        const frame = settings.frame;
        if (scheme === 'dark') await expect.poll(() => frame.locator('body.dark-mode').count(), { timeout: PAGE_WAIT_MS }).toBe(1);
        await expect.poll(() => frame.locator('#ac-sign-in-status').textContent(), { timeout: PAGE_WAIT_MS }).toMatch(/^Signed in/);
        // By keyboard: Enter on the button reads the doors, and the keyboard lands on the result.
        await frame.locator('#ac-activity-load').focus();
        await page.keyboard.press('Enter');
        await expect
          .poll(() => frame.locator('#ac-activity-status').textContent(), { timeout: PAGE_WAIT_MS })
          .toMatch(/^Read the last 7 days/);
        await expect.poll(() => frame.evaluate<string>('document.activeElement && document.activeElement.id')).toBe('ac-activity-status');
        for (const row of await frame.locator('[data-activity-row]').all()) {
          if ((await row.getAttribute('open')) === null) await row.locator(':scope > summary').click();
        }
        expect(await frame.evaluate<string[]>(smallTargets(TARGET_PX))).toEqual([]);
        expect(await frame.evaluate<number>(SIDEWAYS)).toBe(0);
        expect(await axeFaults(frame)).toEqual([]);
        await frame.locator('#ac-activity-section').scrollIntoViewIfNeeded();
        await harness().screenshot(`settings-people-phone-${scheme}`);
        await settings.close();
      }
    } finally {
      await page.emulateMedia({ colorScheme: 'light' });
      await page.setViewportSize(DESKTOP);
    }
  });

  it('says so in words when the service refuses the history, and one door refused does not hide the others', async () => {
    await harness().setPlatforms([written]);
    sim.setFault('history', { kind: 'status', status: 403 });
    try {
      const { settings, frame } = await openActivity();
      expect(await frame.locator('#ac-activity-status').textContent()).toMatch(
        /^The history could not be read for any door\. The service refused to show this door's history \(HTTP 403\)/,
      );
      expect(await frame.locator('[data-activity-note]').allTextContents()).toEqual(Array(3).fill('could not be read'));
      const front = frame.locator(`[data-activity-row="${SAMPLE_FRONT_GATE_ID}"]`);
      if ((await front.getAttribute('open')) === null) await front.locator(':scope > summary').click();
      expect(await front.locator('[data-activity-problem]').textContent()).toMatch(/^The service refused to show this door's history/);
      expect(await axeFaults(frame)).toEqual([]);
      await settings.close();

      // Once: the first door asked is refused, the two others are read.
      sim.setFault('history', { kind: 'status', status: 429 }, { times: 1 });
      const again = await openActivity();
      expect(await again.frame.locator('#ac-activity-status').textContent()).toMatch(
        /^Read the last 7 days of 2 doors: .* The history of 1 door could not be read.*limiting requests/,
      );
      const notes = await again.frame.locator('[data-activity-note]').allTextContents();
      expect(notes.filter((note) => note === 'could not be read')).toHaveLength(1);
      await harness().screenshot('settings-people-refused');
      await again.settings.close();
    } finally {
      sim.clearFaults();
    }
  });

  // Last: its 200 entries stay in the simulator's history.
  it('counts every entry read, not only the newest 50 shown: 200 entries at one door, 150 refused, one person 200 times', async () => {
    await harness().setPlatforms([written]);
    const now = Date.now();
    for (let i = 0; i < 200; i += 1) {
      sim.addHistoryEvent({
        doorId: SAMPLE_SHARED_GATE_ID,
        doorState: 'OPEN',
        at: new Date(now - (i + 1) * MINUTE_MS),
        channel: 'Keypad',
        user: KATHERINE,
        wasSuccess: i % 4 === 0,
      });
    }
    const { settings, frame } = await openActivity();
    expect(await frame.locator('#ac-activity-status').textContent()).toMatch(
      /^Read the last 7 days of 3 doors: 205 entries, 151 refused\.$/,
    );
    const shared = frame.locator(`[data-activity-row="${SAMPLE_SHARED_GATE_ID}"]`);
    expect(await shared.locator('[data-activity-note]').textContent()).toBe('200 entries, 150 refused');
    if ((await shared.getAttribute('open')) === null) await shared.locator(':scope > summary').click();
    expect(await shared.locator('li').count()).toBe(50);
    expect(await shared.locator('[data-activity-more]').textContent()).toBe(
      'The newest 50 of 200 are shown; 150 older ones are counted above but not shown.',
    );
    expect(await frame.locator('#ac-people label').allTextContents()).toContain(
      'Katherine Johnson: 200 times, 150 refused, at Shared Gate',
    );
    await settings.close();
  });
});
