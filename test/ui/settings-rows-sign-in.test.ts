// The settings page in the real Homebridge UI 5.28 in Chromium (issue 42.7): a door is one row however the service and the
// entry spell its id; a sign-in's answer speaks only for the entry, address and token it tried, however the user races
// it; after a one-click fix the keyboard goes on to the next one. A plain door keeps working in each.
import type { Frame, Locator } from 'playwright-core';
import { COULD_MEAN_RULE, PROTECTIVE_RULE } from '../../src/config/protection.js';
import { describe, expect, it } from 'vitest';

import { makeDevice, makeDoor } from '../../dev/simulator/server.js';
import type { AccessControlSimulator } from '../../dev/simulator/server.js';
import { parseConfig } from '../../src/config/index.js';
import { doorOptions } from '../../src/config/door-options.js';
import { PLATFORM_NAME } from '../../src/settings.js';
import { ABANDONED_EDIT_TEXT, ABANDONED_ENTRY_TEXT, SIGNING_IN_TEXT } from '../../src/ui/page/sign-in-line.js';
import { useSimulator } from '../support/simulator.js';
import { axeFaults, contrastOf, FOCUSED, RECORD_WHAT_IS_SHOWN, TEXT_CONTRAST, WHAT_WAS_SHOWN } from './page-probes.js';
import { useUiHarness } from './ui-harness.js';
import type { CustomUiSettings, PlatformBlock } from './ui-harness.js';

/** Waits inside the page: a sign-in against a local simulator, the page's own check of the settings. */
const PAGE_WAIT_MS = 20_000;
/**
 * The first sign-in's answer comes after this long; the one that overtakes it waits longer (SLOWER_MS), so by the time
 * the second is on screen the first was long answered, and the page had every chance to show it.
 */
const SLOW_MS = 1_500;
const SLOWER_MS = SLOW_MS + 2_000;

const TOKEN_A = 'rows-sign-in-token-a-5e21';
const TOKEN_B = 'rows-sign-in-token-b-9c04';
const TOKEN_UPPER = 'rows-sign-in-token-u-77d3';
/** Account A's gate and account B's differ by one character: a closest-id hint from the wrong account would name A's. */
const GATE_A = 'c0ffee00-0000-4000-8000-0000000000a1';
const PLAIN_A = 'c0ffee00-0000-4000-8000-0000000000a2';
const BACK_A = 'c0ffee00-0000-4000-8000-0000000000a3';
const GATE_B = 'c0ffee00-0000-4000-8000-0000000000b1';
const PLAIN_B = 'c0ffee00-0000-4000-8000-0000000000b2';
/** Sent by the service in upper case; the entries write them in lower case. */
const UPPER_GATE = 'D00D0000-0000-4000-8000-0000000000C1';
const UPPER_SIDE = 'D00D0000-0000-4000-8000-0000000000C2';
const PLAIN_UPPER_ACCOUNT = 'd00d0000-0000-4000-8000-0000000000c3';

const accountOf = (doors: [string, string][]) => [
  makeDevice({ doors: doors.map(([id, name], index) => makeDoor({ id, name, entityNumber: index + 1 })) }),
];

let simA: AccessControlSimulator;
let simB: AccessControlSimulator;
let simUpper: AccessControlSimulator;
useSimulator(
  {
    accessToken: TOKEN_A,
    devices: accountOf([
      [GATE_A, 'Gate A'],
      [PLAIN_A, 'Plain A'],
      [BACK_A, 'Back A'],
    ]),
  },
  (started) => (simA = started),
);
useSimulator(
  {
    accessToken: TOKEN_B,
    devices: accountOf([
      [GATE_B, 'Gate B'],
      [PLAIN_B, 'Plain B'],
    ]),
  },
  (started) => (simB = started),
);
useSimulator(
  {
    accessToken: TOKEN_UPPER,
    devices: accountOf([
      [UPPER_GATE, 'Upper gate'],
      [UPPER_SIDE, 'Upper side'],
      [PLAIN_UPPER_ACCOUNT, 'Plain U'],
    ]),
  },
  (started) => (simUpper = started),
);
const harness = useUiHarness();

const entryA = (): PlatformBlock => ({ platform: PLATFORM_NAME, name: 'Entry A', baseUrl: simA.baseUrl, accessToken: TOKEN_A });

/** Writes `blocks` to config.json and opens the page on them; the first entry signs in by itself, as it has both fields. */
async function openWith(blocks: PlatformBlock[]): Promise<{ settings: CustomUiSettings; frame: Frame }> {
  await harness().setPlatforms(blocks);
  const settings = await harness().openCustomUi();
  await settings.frame.locator('#ac-sign-in').waitFor({ timeout: PAGE_WAIT_MS });
  return { settings, frame: settings.frame };
}

const signInLine = (frame: Frame) => frame.locator('#ac-sign-in-status').textContent();
const syncsAsked = (sim: AccessControlSimulator) => sim.requests.filter((request) => request.path.endsWith('/sync')).length;

/** What RECORD_WHAT_IS_SHOWN saw: every sign-in line, door row id and check warning the page showed. */
interface Shown {
  signIn: string[];
  rows: string[];
  warnings: string[];
}

/**
 * Opens the page on `blocks` with account A answering its next sign-in slowly: the first entry (A's) signs in by itself,
 * and once its request reached the service, everything the page shows from then on is recorded (WHAT_WAS_SHOWN).
 */
async function openWhileSigningIn(blocks: PlatformBlock[]): Promise<{ settings: CustomUiSettings; frame: Frame }> {
  const asked = syncsAsked(simA);
  simA.setFault('sync', { kind: 'delay', ms: SLOW_MS }, { times: 1 });
  const opened = await openWith(blocks);
  await expect.poll(() => signInLine(opened.frame), { timeout: PAGE_WAIT_MS }).toBe(SIGNING_IN_TEXT);
  await expect.poll(() => syncsAsked(simA), { timeout: PAGE_WAIT_MS }).toBe(asked + 1);
  await opened.frame.evaluate(RECORD_WHAT_IS_SHOWN);
  return opened;
}
/** An attribute of each element `locator` finds, in the page's order. */
async function attributes(locator: Locator, name: string): Promise<(string | null)[]> {
  return Promise.all((await locator.all()).map((each) => each.getAttribute(name)));
}
/**
 * The sign-in in flight was overtaken: the page says `abandoned` at once, with the button free and nothing axe-core
 * finds serious; Sign in is pressed again, and `sim` answers it more slowly than the first (SLOWER_MS).
 */
async function signInAgainSlower(frame: Frame, abandoned: string, sim: AccessControlSimulator): Promise<void> {
  await expect.poll(() => signInLine(frame)).toBe(abandoned);
  expect(await frame.locator('#ac-sign-in').isDisabled()).toBe(false);
  expect(await axeFaults(frame)).toEqual([]);
  sim.setFault('sync', { kind: 'delay', ms: SLOWER_MS }, { times: 1 });
  await frame.locator('#ac-sign-in').click();
}
const rowIds = (frame: Frame) => attributes(frame.locator('[data-door-row]'), 'data-door-row');
const row = (frame: Frame, doorId: string) => frame.locator(`[data-door-row="${doorId}"]`);

/** Opens the door list (a short one opens by itself) and the door's row, as a user does before changing its options. */
async function openRow(frame: Frame, doorId: string): Promise<void> {
  const list = frame.locator('#ac-door-list');
  if ((await list.getAttribute('open')) === null) await list.locator('summary').first().click();
  if ((await row(frame, doorId).getAttribute('open')) === null) await row(frame, doorId).locator('summary').click();
}

/** Sets a door's own Read-only in its row. */
async function setReadOnly(frame: Frame, doorId: string, choice: 'on' | 'off' | 'inherit'): Promise<void> {
  await openRow(frame, doorId);
  await row(frame, doorId).locator('select[data-flag="readOnly"]').selectOption(choice);
}

async function waitForAccepted(frame: Frame): Promise<void> {
  await expect
    .poll(() => frame.locator('#ac-check-status').textContent(), { timeout: PAGE_WAIT_MS })
    .toMatch(/^The plugin accepts these settings/);
}

/** Whether the plugin, running the saved block, keeps `doorId` (as the service sends it) read-only. */
function readOnlyAtRuntime(block: PlatformBlock | undefined, doorId: string): boolean {
  const parsed = parseConfig(block);
  if (!parsed.ok) throw new Error(`the saved block does not run: ${parsed.problems.join('; ')}`);
  return doorOptions(parsed.config, doorId).readOnly;
}

describe('the settings page keys rows as the plugin does', () => {
  it('draws one row per door when the service sends ids in upper case and the entries write them in lower case; "Back to all-doors settings" and Save keep what protects the real door', async () => {
    const block: PlatformBlock = {
      platform: PLATFORM_NAME,
      baseUrl: simUpper.baseUrl,
      accessToken: TOKEN_UPPER,
      doors: [
        { id: UPPER_GATE.toLowerCase(), readOnly: true },
        { id: UPPER_SIDE.toLowerCase(), name: 'Side door' },
      ],
    };
    const { settings, frame } = await openWith([block]);
    await expect.poll(() => signInLine(frame), { timeout: PAGE_WAIT_MS }).toBe('Signed in: 1 controller, 3 doors.');
    // One row per door, under the service's spelling: no row for an entry alone, whose "Back to all-doors settings" would
    // remove the real door's own settings.
    await expect.poll(() => rowIds(frame)).toEqual([UPPER_GATE, UPPER_SIDE, PLAIN_UPPER_ACCOUNT]);
    expect(await row(frame, UPPER_GATE).locator('select[data-flag="readOnly"]').inputValue()).toBe('on');
    expect(await row(frame, UPPER_GATE).locator('[data-door-changes]').textContent()).toBe('1 change');
    expect(await frame.locator('#ac-check-warnings').textContent()).not.toMatch(/does not have/);

    // The side door back to the settings for all doors: its entry goes, the gate's stays.
    await openRow(frame, UPPER_SIDE);
    await row(frame, UPPER_SIDE).locator('[data-door-reset]').click();
    await expect.poll(() => row(frame, UPPER_SIDE).locator('[data-door-changes]').textContent()).toBe('as for all doors');
    expect(await row(frame, UPPER_GATE).locator('select[data-flag="readOnly"]').inputValue()).toBe('on');
    // A plain door works as before.
    await setReadOnly(frame, PLAIN_UPPER_ACCOUNT, 'on');
    await expect.poll(() => row(frame, PLAIN_UPPER_ACCOUNT).locator('[data-door-changes]').textContent()).toBe('1 change');
    await waitForAccepted(frame);
    const saved = await harness().save(settings);
    expect(saved.blocks).toEqual([
      {
        ...block,
        doors: [
          { id: UPPER_GATE.toLowerCase(), readOnly: true },
          { id: PLAIN_UPPER_ACCOUNT, readOnly: true },
        ],
      },
    ]);
    expect(readOnlyAtRuntime(saved.blocks[0], UPPER_GATE)).toBe(true);
    expect(readOnlyAtRuntime(saved.blocks[0], UPPER_SIDE)).toBe(false);
    expect(readOnlyAtRuntime(saved.blocks[0], PLAIN_UPPER_ACCOUNT)).toBe(true);
  });
});

describe("a sign-in's answer speaks only for the entry, address and token it tried", () => {
  it("switching to entry B while entry A signs in: A's answer never shows under B; B signs in to its own doors, and its read-only is saved", async () => {
    const entryB: PlatformBlock = {
      platform: PLATFORM_NAME,
      name: 'Entry B',
      baseUrl: simB.baseUrl,
      accessToken: TOKEN_B,
      doors: [{ id: GATE_B, readOnly: true }],
    };
    // Entry A signs in by itself on opening, slowly.
    const { settings, frame } = await openWhileSigningIn([entryA(), entryB]);

    // Entry B chosen meanwhile: A's sign-in no longer counts, said at once, and B can sign in right away.
    await frame.locator('#ac-entry').selectOption('1');
    // B's own sign-in answers after A's did: once B's is on screen, A's answer has come and gone.
    await signInAgainSlower(frame, ABANDONED_ENTRY_TEXT, simB);
    await expect.poll(() => signInLine(frame), { timeout: PAGE_WAIT_MS }).toBe('Signed in: 1 controller, 2 doors.');
    await expect.poll(() => rowIds(frame)).toEqual([GATE_B, PLAIN_B]);

    // Never on screen under B: A's "Signed in", A's doors, a warning that B's read-only door is not in the account, A's id.
    const shown = await frame.evaluate<Shown>(WHAT_WAS_SHOWN);
    expect(shown.signIn.filter((line) => line.startsWith('Signed in'))).toEqual(['Signed in: 1 controller, 2 doors.']);
    expect(shown.rows.filter((id) => [GATE_A, PLAIN_A, BACK_A].includes(id))).toEqual([]);
    expect(shown.warnings.filter((line) => line.includes(GATE_A) || line.includes(GATE_B))).toEqual([]);

    // B's read-only door is B's; a plain door of B's is set read-only too, and both are saved into B, A as written.
    expect(await row(frame, GATE_B).locator('select[data-flag="readOnly"]').inputValue()).toBe('on');
    await setReadOnly(frame, PLAIN_B, 'on');
    await waitForAccepted(frame);
    const saved = await harness().save(settings);
    expect(saved.blocks).toEqual([
      entryA(),
      {
        ...entryB,
        doors: [
          { id: GATE_B, readOnly: true },
          { id: PLAIN_B, readOnly: true },
        ],
      },
    ]);
    expect(readOnlyAtRuntime(saved.blocks[1], PLAIN_B)).toBe(true);
  });

  it('editing the token while "Signing in…": never "Signed in" for a token not tried; the right token then signs in and a plain door is saved', async () => {
    const { settings, frame } = await openWhileSigningIn([entryA()]);

    // Another token typed while the first is tried: that sign-in no longer counts, said at once.
    await frame.locator('#ac-accessToken').fill('a-token-never-tried');
    // The typed token's own sign-in answers after the first one did, and is refused.
    await signInAgainSlower(frame, ABANDONED_EDIT_TEXT, simA);
    await expect.poll(() => signInLine(frame), { timeout: PAGE_WAIT_MS }).toMatch(/refused the access token/);
    const shown = await frame.evaluate<Shown>(WHAT_WAS_SHOWN);
    expect(shown.signIn.filter((line) => line.startsWith('Signed in'))).toEqual([]);
    expect(shown.rows).toEqual([]);
    expect(await frame.locator('#ac-check-status').textContent()).not.toMatch(/^The plugin accepts these settings/);

    // The right token again: signed in, its doors listed, and a plain door set read-only is saved.
    await frame.locator('#ac-accessToken').fill(TOKEN_A);
    await frame.locator('#ac-sign-in').click();
    await expect.poll(() => signInLine(frame), { timeout: PAGE_WAIT_MS }).toBe('Signed in: 1 controller, 3 doors.');
    await setReadOnly(frame, PLAIN_A, 'on');
    await waitForAccepted(frame);
    const saved = await harness().save(settings);
    expect(saved.blocks).toEqual([{ ...entryA(), doors: [{ id: PLAIN_A, readOnly: true }] }]);
  });
});

describe('one-click fixes by keyboard', () => {
  it('after "Write it as …" the keyboard moves to the next fix, then to the check\'s summary when none is left; dark, on a phone', async () => {
    const { page } = harness().browser;
    const nearly: PlatformBlock = {
      ...entryA(),
      readonly: true,
      doors: [
        { id: GATE_A, readonly: true },
        { id: BACK_A, Name: 'Back gate' },
      ],
    };
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: 'dark' });
    try {
      const { settings, frame } = await openWith([nearly]);
      await expect.poll(() => signInLine(frame), { timeout: PAGE_WAIT_MS }).toBe('Signed in: 1 controller, 3 doors.');
      const fixes = frame.locator('#ac-check-fixes button');
      await expect.poll(() => fixes.count(), { timeout: PAGE_WAIT_MS }).toBe(3);
      expect(await axeFaults(frame)).toEqual([]);
      const labels = await attributes(fixes, 'aria-label');
      expect(labels).toEqual([
        'Write it as readOnly: "readonly" for all doors',
        'Write it as readOnly: "readonly" in door entry 1',
        'Write it as name: "Name" in door entry 2',
      ]);
      /** Where the keyboard is once the page's check of the edit has run (no check pending: the summary is not busy). */
      const focusWhenChecked = async (): Promise<string> => {
        await frame.locator('#ac-check:not([aria-busy])').waitFor({ timeout: PAGE_WAIT_MS });
        return frame.evaluate<string>(FOCUSED);
      };

      // The middle fix, by keyboard: the keyboard goes on to the one after it.
      await fixes.nth(1).focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => fixes.count()).toBe(2);
      expect(await focusWhenChecked()).toBe(labels[2]);
      // The last one: none after it, so the one before it.
      await page.keyboard.press('Enter');
      await expect.poll(() => fixes.count()).toBe(1);
      expect(await focusWhenChecked()).toBe(labels[0]);
      await harness().screenshot('settings-phone-dark-fix-focus');
      // The rule for what the plugin cannot read (issue 42), in the docs' words, readable in the dark theme on a phone
      // (drawn with Bootstrap's form-text, it was the background's colour there).
      expect(await frame.locator('#ac-check-rule').textContent()).toBe(`${PROTECTIVE_RULE} ${COULD_MEAN_RULE}`);
      const contrast = await frame.evaluate<number>(contrastOf('#ac-check-rule'));
      expect(contrast).toBeGreaterThanOrEqual(TEXT_CONTRAST);
      // The last fix left: the keyboard lands on the check's summary.
      await page.keyboard.press('Enter');
      await expect.poll(() => fixes.count()).toBe(0);
      expect(await focusWhenChecked()).toBe('ac-check-status');
      expect(await axeFaults(frame)).toEqual([]);

      // A plain door works as before; Save writes each key under its name with its value, nothing else changed.
      await setReadOnly(frame, PLAIN_A, 'on');
      await waitForAccepted(frame);
      const saved = await harness().save(settings);
      expect(saved.blocks).toEqual([
        {
          ...entryA(),
          readOnly: true,
          doors: [
            { id: GATE_A, readOnly: true },
            { id: BACK_A, name: 'Back gate' },
            { id: PLAIN_A, readOnly: true },
          ],
        },
      ]);
    } finally {
      await page.emulateMedia({ colorScheme: 'light' });
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });
});
