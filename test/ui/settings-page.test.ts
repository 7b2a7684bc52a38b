// The plugin's own settings page in the real Homebridge UI 5.28 with Chromium, against the simulator: sign in, the door list,
// what Save writes, and the plugin in the UI's real Homebridge running what was saved (doors published, webhooks answering).
import { describe, expect, it } from 'vitest';

import { parseConfig } from '../../src/config/index.js';
import { freePort } from '../../dev/harness/homebridge-process.js';
import { doorOptions } from '../../src/config/door-options.js';
import { inDoorRow, OPTIONS, optionSpec, pagePlace, SHOW_AS_KINDS } from '../../src/option-catalog.js';
import type { OptionSpec } from '../../src/option-catalog.js';
import { PLATFORM_NAME } from '../../src/settings.js';
import { SAMPLE_FRONT_GATE_ID, SAMPLE_GARAGE_DOOR_ID } from '../../dev/simulator/server.js';
import {
  DOOR_NAMES,
  doorRows,
  doorsSet,
  EDITS,
  harness,
  openDoorRows,
  openPage,
  PAGE_WAIT_MS,
  PLUGIN_LOG_TIMEOUT_MS,
  requestLines,
  savedEntry,
  sim,
  statusOf,
  TOKEN,
  useSettingsPage,
  waitForAccepted,
  wordsOf,
} from './settings-page-kit.js';

useSettingsPage();

describe('the settings page in the Homebridge UI', () => {
  it('on first run, says no problem before anything is touched, then names fields by their labels; Save stays off until both are there', async () => {
    await harness().setPlatforms([]);
    const { settings, page } = await openPage();
    await expect
      .poll(() => statusOf(page, 'ac-check-status').textContent(), { timeout: PAGE_WAIT_MS })
      .toBe('Type the Service address and Access token, then press Sign in.');
    expect(await statusOf(page, 'ac-check-status').getAttribute('class')).toBe('status status-info');
    expect(await page.locator('#ac-check-list li').count()).toBe(0);
    expect(await settings.saveButton.isDisabled()).toBe(true);

    await page.locator('#ac-baseUrl').fill(sim.baseUrl);
    await expect.poll(() => statusOf(page, 'ac-check-status').textContent(), { timeout: PAGE_WAIT_MS }).toMatch(/would sync no door/);
    await expect.poll(() => page.locator('#ac-check-list li').allTextContents()).toEqual(['Access token is required']);
    expect(await settings.saveButton.isDisabled()).toBe(true);
    await settings.close();
    expect(await harness().platformBlocks()).toEqual([]);
  });

  it('checks each edit in the page itself: one sign-in and ten edits add at most 3 requests to the log', async () => {
    await harness().setPlatforms([]);
    const { settings, page } = await openPage();
    // Opening the page asks the server for its defaults (/info), which may be logged after this mark: 1 + the sign-in's 1 + slack.
    const mark = harness().lineCount();
    await page.locator('#ac-baseUrl').fill(sim.baseUrl);
    await page.locator('#ac-accessToken').fill(TOKEN);
    await page.locator('#ac-sign-in').click();
    await expect
      .poll(() => statusOf(page, 'ac-sign-in-status').textContent(), { timeout: PAGE_WAIT_MS })
      .toBe('Signed in: 2 controllers, 3 doors.');
    await waitForAccepted(page);
    // Ten edits: the token changed, then typed back, in turns. Each one's check is seen before the next edit (the summary
    // turns to "not signed in" and back to "accepts"), so every edit was checked, and by the page alone.
    for (let edit = 1; edit <= EDITS; edit += 1) {
      const changed = edit % 2 === 1;
      await page.locator('#ac-accessToken').fill(changed ? `${TOKEN}${'x'.repeat(edit)}` : TOKEN);
      if (changed) {
        await expect
          .poll(() => wordsOf(page, 'ac-check-status'), { timeout: PAGE_WAIT_MS })
          .toMatch(/have not signed in yet: press Sign in/);
      } else {
        await waitForAccepted(page);
      }
    }
    // Back at the token signed in with: the page's own check counts the account's doors again.
    await expect
      .poll(() => statusOf(page, 'ac-count').textContent())
      .toBe('3 of 3 doors will show in Home (one bridge holds at most 149).');
    // Sign in once more: the server logs the requests it gets in the order they came, so once this one is in the log,
    // every request the page sent during the edits is in it too, before it.
    await page.locator('#ac-sign-in').click();
    await expect.poll(() => requestLines(mark).filter((line) => line.includes('/sign-in')).length, { timeout: PAGE_WAIT_MS }).toBe(2);
    const lines = requestLines(mark);
    const requests = lines.slice(
      0,
      lines.findLastIndex((line) => line.includes('/sign-in')),
    );
    expect(requests.length, requests.join('\n')).toBeLessThanOrEqual(3);
    expect(requests.filter((line) => line.includes('/sign-in'))).toHaveLength(1);
    await settings.close();
    expect(await harness().platformBlocks()).toEqual([]);
  });

  it('a refused token or an address where nothing listens is a warning in words, never green; the raw code only behind Details', async () => {
    await harness().setPlatforms([]);
    const { settings, page } = await openPage();
    await page.locator('#ac-baseUrl').fill(sim.baseUrl);
    await page.locator('#ac-accessToken').fill('not-the-token');
    await page.locator('#ac-sign-in').click();
    await expect
      .poll(() => wordsOf(page, 'ac-sign-in-status'), { timeout: PAGE_WAIT_MS })
      .toBe('The service refused this access token. Copy the Access token from your account again and press Sign in.');
    expect(await statusOf(page, 'ac-sign-in-status').getAttribute('class')).toBe('status status-warn');
    await expect
      .poll(() => wordsOf(page, 'ac-check-status'), { timeout: PAGE_WAIT_MS })
      .toMatch(/^The service refused this access token\. If you save these settings, the plugin/);
    expect(await statusOf(page, 'ac-check-status').getAttribute('class')).toBe('status status-warn');
    expect(await page.locator('#ac-check').textContent()).not.toMatch(/accepts these settings/);
    for (const id of ['ac-sign-in-status', 'ac-check-status']) {
      expect(await wordsOf(page, id)).not.toMatch(/401|accessToken|baseUrl/);
      expect(await page.locator(`#${id} > details > summary`).textContent()).toBe('Details');
      expect(await page.locator(`#${id} > details`).textContent()).toMatch(/HTTP 401/);
      expect(await page.locator(`#${id} > details`).getAttribute('open')).toBeNull();
    }
    // Saving stays possible: setting up while the service refuses or is down is legitimate, and the summary says so.
    expect(await settings.saveButton.isDisabled()).toBe(false);
    await harness().screenshot('settings-refused-token');
    expect(harness().log()).not.toContain('not-the-token');

    // An edit of the address makes the refusal stale: neither green nor the old warning, until Sign in again.
    const closed = `http://127.0.0.1:${await freePort()}`;
    await page.locator('#ac-baseUrl').fill(closed);
    await expect.poll(() => wordsOf(page, 'ac-check-status'), { timeout: PAGE_WAIT_MS }).toMatch(/have not signed in yet: press Sign in/);
    await page.locator('#ac-sign-in').click();
    await expect
      .poll(() => wordsOf(page, 'ac-sign-in-status'), { timeout: PAGE_WAIT_MS })
      .toBe('Nothing answers at this address. Check the Service address, and that the service is up.');
    await expect
      .poll(() => wordsOf(page, 'ac-check-status'), { timeout: PAGE_WAIT_MS })
      .toMatch(/^Nothing answers at this address\. If you save these settings/);
    expect(await wordsOf(page, 'ac-check-status')).not.toMatch(/ECONNREFUSED|UND_ERR/);
    expect(await page.locator('#ac-check-status > details').textContent()).toMatch(/ECONNREFUSED/);
    expect(await page.locator('#ac-check').textContent()).not.toMatch(/accepts these settings/);
    await settings.close();
    expect(await harness().platformBlocks()).toEqual([]);
  });

  it("signs in and lists the account's doors; a plain save writes only the two fields, and Homebridge publishes every door", async () => {
    await harness().setPlatforms([]);
    const { settings, page } = await openPage();
    await page.locator('#ac-baseUrl').fill(sim.baseUrl);
    await page.locator('#ac-accessToken').fill(TOKEN);
    await page.locator('#ac-sign-in').click();
    await expect
      .poll(() => statusOf(page, 'ac-sign-in-status').textContent(), { timeout: PAGE_WAIT_MS })
      .toBe('Signed in: 2 controllers, 3 doors.');
    await expect.poll(() => doorRows(page).count()).toBe(3);
    expect(await page.locator('[data-door-name]').allTextContents()).toEqual(DOOR_NAMES);
    expect(await page.locator(`[data-door-row="${SAMPLE_FRONT_GATE_ID}"]`).innerText()).toMatch(
      /closed · owned · door sensor, battery 85 %/,
    );
    await waitForAccepted(page);
    await expect
      .poll(() => statusOf(page, 'ac-count').textContent())
      .toBe('3 of 3 doors will show in Home (one bridge holds at most 149).');
    await harness().screenshot('settings-signed-in');
    // Every option the catalog offers on the page is drawn there, for all doors and per door: nothing names them by hand.
    for (const option of (OPTIONS as readonly OptionSpec[]).filter((entry) => pagePlace(entry) !== undefined)) {
      expect({ key: option.key, drawn: await page.locator(`#ac-${option.key}`).count() }).toEqual({ key: option.key, drawn: 1 });
    }
    await openDoorRows(page);
    // Front Gate has a door sensor: every per-door choice but the left-open repeat (offered once its sensor is on) is there.
    const perDoor = (OPTIONS as readonly OptionSpec[]).filter((entry) => inDoorRow(entry) && entry.offered !== 'with-shown-with');
    for (const { key } of perDoor) {
      const drawn = await page
        .locator(
          `[data-door-row="${SAMPLE_FRONT_GATE_ID}"] [data-flag="${key}"], [data-door-row="${SAMPLE_FRONT_GATE_ID}"] [data-field="${key}"]`,
        )
        .count();
      expect({ key, drawn }).toEqual({ key, drawn: 1 });
    }

    const mark = harness().lineCount();
    const saved = await harness().save(settings, { restart: true });
    expect(saved.blocks).toEqual([{ platform: PLATFORM_NAME, baseUrl: sim.baseUrl, accessToken: TOKEN }]);
    // The UI's own Homebridge restarted with what was saved, and the plugin put every door in HomeKit.
    for (const name of DOOR_NAMES) {
      await harness().waitForLog(new RegExp(`Added ${name} to HomeKit`), PLUGIN_LOG_TIMEOUT_MS, { fromLine: mark });
    }
    expect(harness().log()).not.toMatch(/configuration is not valid|is ignored/);
    expect(harness().log()).not.toContain(TOKEN);
  });

  it('a renamed door is saved as its id and name only, and stays read-only when Read-only is on for all doors', async () => {
    await harness().setPlatforms([savedEntry()]);
    const { settings, page } = await openPage();
    // An existing setup signs in by itself.
    await expect.poll(() => doorRows(page).count(), { timeout: PAGE_WAIT_MS }).toBe(3);
    await openDoorRows(page);
    await page.locator('#ac-readOnly').check();
    const gateRow = page.locator(`[data-door-row="${SAMPLE_FRONT_GATE_ID}"]`);
    await expect.poll(() => gateRow.locator('select[data-flag="readOnly"] option:checked').textContent()).toBe('As for all (on)');
    // The access alert for all doors: each door's choice follows it; unticked again, nothing of it is saved.
    await page.locator('#ac-accessAlert').check();
    await expect.poll(() => gateRow.locator('select[data-flag="accessAlert"] option:checked').textContent()).toBe('As for all (on)');
    expect(await page.locator('#ac-accessAlertDuration').getAttribute('placeholder')).toBe('30 (default)');
    await page.locator('#ac-accessAlert').uncheck();
    await gateRow.locator('input[data-field="name"]').fill('Street Gate');
    await gateRow.locator('input[data-field="name"]').press('Tab');
    await waitForAccepted(page);
    await harness().screenshot('settings-doors');

    const saved = await harness().save(settings);
    expect(saved.blocks).toEqual([
      {
        platform: PLATFORM_NAME,
        baseUrl: sim.baseUrl,
        accessToken: TOKEN,
        readOnly: true,
        doors: [{ id: SAMPLE_FRONT_GATE_ID, name: 'Street Gate' }],
      },
    ]);
    const parsed = parseConfig(saved.blocks[0]);
    expect(parsed.ok && parsed.ignored).toEqual([]);
    if (!parsed.ok) return;
    expect(doorOptions(parsed.config, SAMPLE_FRONT_GATE_ID)).toMatchObject({ name: 'Street Gate', readOnly: true });
  });

  it('one door set to "Off" saves only that field; the other doors keep following the value for all doors', async () => {
    await harness().setPlatforms([savedEntry({ readOnly: true, doors: [{ id: SAMPLE_FRONT_GATE_ID, name: 'Street Gate' }] })]);
    const { settings, page } = await openPage();
    await expect.poll(() => doorRows(page).count(), { timeout: PAGE_WAIT_MS }).toBe(3);
    await openDoorRows(page);
    await page.locator(`[data-door-row="${SAMPLE_GARAGE_DOOR_ID}"] select[data-flag="contactSensor"]`).selectOption('on');
    // Hide battery is offered only for the door with a bluetooth sensor.
    expect(await page.locator(`[data-door-row="${SAMPLE_FRONT_GATE_ID}"] select[data-flag="hideBattery"]`).count()).toBe(1);
    expect(await page.locator(`[data-door-row="${SAMPLE_GARAGE_DOOR_ID}"] select[data-flag="hideBattery"]`).count()).toBe(0);
    await waitForAccepted(page);
    const saved = await harness().save(settings);
    expect(saved.blocks[0]?.doors).toEqual([
      { id: SAMPLE_FRONT_GATE_ID, name: 'Street Gate' },
      { id: SAMPLE_GARAGE_DOOR_ID, contactSensor: true },
    ]);
    expect(saved.blocks[0]?.contactSensor).toBeUndefined();
  });

  it('the automation switch is a select of modes for all doors and per door, writing only what is set', async () => {
    await harness().setPlatforms([doorsSet()]);
    const { settings, page } = await openPage();
    await expect.poll(() => doorRows(page).count(), { timeout: PAGE_WAIT_MS }).toBe(3);
    await openDoorRows(page);
    const global = page.locator('#ac-automationSwitch');
    // Short titles, which a phone does not cut; what the chosen one does under the select.
    expect(await global.locator('option').allTextContents()).toEqual(['Off', 'Open only', 'Open and close']);
    await global.selectOption('open');
    expect(await page.locator('#ac-automationSwitch-what').textContent()).toBe(
      'Open only: on opens the door, then it turns itself off; off does nothing',
    );
    const garage = page.locator(`[data-door-row="${SAMPLE_GARAGE_DOOR_ID}"] select[data-flag="automationSwitch"]`);
    await expect.poll(() => garage.locator('option:checked').textContent()).toBe('As for all (open only)');
    expect(await garage.locator('option').allTextContents()).toEqual(['As for all (open only)', 'Off', 'Open only', 'Open and close']);
    await garage.selectOption('open-close');
    await waitForAccepted(page);
    const saved = await harness().save(settings);
    expect(saved.blocks[0]?.automationSwitch).toBe('open');
    expect(saved.blocks[0]?.doors).toContainEqual({ id: SAMPLE_GARAGE_DOOR_ID, contactSensor: true, automationSwitch: 'open-close' });
    const parsed = parseConfig(saved.blocks[0]);
    if (!parsed.ok) throw new Error(parsed.problems.join('; '));
    expect(parsed.ignored).toEqual([]);
    expect(doorOptions(parsed.config, SAMPLE_GARAGE_DOOR_ID).automationSwitch).toBe('open-close');
    expect(doorOptions(parsed.config, SAMPLE_FRONT_GATE_ID).automationSwitch).toBe('open');

    // Back to Off for all and "as for all" for the door: nothing of the switch is written.
    const again = await openPage();
    await expect.poll(() => doorRows(again.page).count(), { timeout: PAGE_WAIT_MS }).toBe(3);
    await openDoorRows(again.page);
    // The page shows what was saved: open only for all, open and close for the garage door.
    expect(await again.page.locator('#ac-automationSwitch').inputValue()).toBe('open');
    await again.page.locator('#ac-automationSwitch').selectOption('off');
    expect(await again.page.locator('#ac-automationSwitch').inputValue()).toBe('off');
    await again.page.locator(`[data-door-row="${SAMPLE_GARAGE_DOOR_ID}"] select[data-flag="automationSwitch"]`).selectOption('inherit');
    await waitForAccepted(again.page);
    const restored = await harness().save(again.settings);
    expect(restored.blocks[0]?.automationSwitch).toBeUndefined();
    expect(restored.blocks[0]?.doors).toContainEqual({ id: SAMPLE_GARAGE_DOOR_ID, contactSensor: true });
  });

  it('Google Home and Alexa (Matter) is a choice in a section named for it, written only when not Off', async () => {
    await harness().setPlatforms([doorsSet()]);
    const { settings, page } = await openPage();
    await expect.poll(() => doorRows(page).count(), { timeout: PAGE_WAIT_MS }).toBe(3);
    // A user looking for Google Home or Alexa finds the section by its name, folded at first.
    const section = page.locator('#ac-timing-section');
    expect(await section.locator('summary').textContent()).toContain('Google Home and Alexa (Matter)');
    await section.locator('summary').click();
    const matter = page.locator('#ac-matter');
    await matter.waitFor({ state: 'visible', timeout: PAGE_WAIT_MS });
    expect(await page.locator('label[for="ac-matter"]').textContent()).toContain('Google Home and Alexa');
    expect(await matter.inputValue()).toBe('off');
    expect(await matter.locator('option').allTextContents()).toEqual([
      'Off',
      'Contact sensors (state only)',
      'Locks (unlock opens, lock closes)',
    ]);
    await matter.selectOption('locks');
    expect(await page.locator('#ac-matter-what').textContent()).toBe('Locks: unlock opens, lock closes');
    await waitForAccepted(page);
    await matter.scrollIntoViewIfNeeded();
    await harness().screenshot('settings-matter');
    const saved = await harness().save(settings);
    expect(saved.blocks[0]?.matter).toBe('locks');
    const parsed = parseConfig(saved.blocks[0]);
    if (!parsed.ok) throw new Error(parsed.problems.join('; '));
    expect(parsed.ignored).toEqual([]);
    expect(parsed.config.matter).toBe('locks');

    // Back to Off: the page shows what was saved, and Off writes nothing.
    const again = await openPage();
    await again.page.locator('#ac-timing-section summary').click();
    expect(await again.page.locator('#ac-matter').inputValue()).toBe('locks');
    await again.page.locator('#ac-matter').selectOption('off');
    await waitForAccepted(again.page);
    const restored = await harness().save(again.settings);
    expect(restored.blocks[0]?.matter).toBeUndefined();
  });

  it('the left-open repeat is typed for all doors and per door where the left-open sensor is on, writing only what is set', async () => {
    await harness().setPlatforms([doorsSet()]);
    const { settings, page } = await openPage();
    await expect.poll(() => doorRows(page).count(), { timeout: PAGE_WAIT_MS }).toBe(3);
    await openDoorRows(page);
    const repeatOf = (doorId: string) => page.locator(`[data-door-row="${doorId}"] input[data-field="leftOpenRepeat"]`);
    const global = page.locator('#ac-leftOpenRepeat');
    // A field to type in (never a slider), offered per door only once a door has a left-open sensor.
    expect(await global.getAttribute('type')).toBe('text');
    expect(await global.getAttribute('placeholder')).toBe('0: once');
    expect(await page.locator('input[data-field="leftOpenRepeat"]').count()).toBe(0);
    await page.locator('#ac-leftOpenSensor').check();
    await expect.poll(() => page.locator('input[data-field="leftOpenRepeat"]').count()).toBe(3);
    expect(await repeatOf(SAMPLE_GARAGE_DOOR_ID).getAttribute('placeholder')).toBe('As for all (off)');
    await global.fill('30');
    await global.press('Tab');
    await expect.poll(() => repeatOf(SAMPLE_GARAGE_DOOR_ID).getAttribute('placeholder')).toBe('As for all (30 minutes)');
    // The garage door's own left-open sensor off: its repeat goes from the row.
    await page.locator(`[data-door-row="${SAMPLE_GARAGE_DOOR_ID}"] select[data-flag="leftOpenSensor"]`).selectOption('off');
    await expect.poll(() => repeatOf(SAMPLE_GARAGE_DOOR_ID).count()).toBe(0);
    // What is not a whole number in range is marked and not written; a good value is.
    const gate = repeatOf(SAMPLE_FRONT_GATE_ID);
    await gate.fill('2000');
    expect(await gate.getAttribute('aria-invalid')).toBe('true');
    await gate.fill('5');
    expect(await gate.getAttribute('aria-invalid')).toBe('false');
    await waitForAccepted(page);
    const saved = await harness().save(settings);
    expect(saved.blocks[0]).toMatchObject({ leftOpenSensor: true, leftOpenRepeat: 30 });
    expect(saved.blocks[0]?.doors).toContainEqual({ id: SAMPLE_FRONT_GATE_ID, name: 'Street Gate', leftOpenRepeat: 5 });
    expect(saved.blocks[0]?.doors).toContainEqual({ id: SAMPLE_GARAGE_DOOR_ID, contactSensor: true, leftOpenSensor: false });
    const parsed = parseConfig(saved.blocks[0]);
    if (!parsed.ok) throw new Error(parsed.problems.join('; '));
    expect(parsed.ignored).toEqual([]);
    expect(doorOptions(parsed.config, SAMPLE_FRONT_GATE_ID)).toMatchObject({ leftOpenSensor: true, leftOpenRepeat: 5 });

    // 0 for all doors (the default) and the door's own emptied: nothing of the repeat is written.
    const again = await openPage();
    await expect.poll(() => doorRows(again.page).count(), { timeout: PAGE_WAIT_MS }).toBe(3);
    await openDoorRows(again.page);
    expect(await again.page.locator('#ac-leftOpenRepeat').inputValue()).toBe('30');
    const gateAgain = again.page.locator(`[data-door-row="${SAMPLE_FRONT_GATE_ID}"] input[data-field="leftOpenRepeat"]`);
    expect(await gateAgain.inputValue()).toBe('5');
    await again.page.locator('#ac-leftOpenRepeat').fill('0');
    await again.page.locator('#ac-leftOpenRepeat').press('Tab');
    await expect.poll(() => gateAgain.getAttribute('placeholder')).toBe('As for all (off)');
    await gateAgain.fill('');
    await again.page.locator(`[data-door-row="${SAMPLE_GARAGE_DOOR_ID}"] select[data-flag="leftOpenSensor"]`).selectOption('inherit');
    await again.page.locator('#ac-leftOpenSensor').uncheck();
    await waitForAccepted(again.page);
    const restored = await harness().save(again.settings);
    expect(restored.blocks[0]?.leftOpenRepeat).toBeUndefined();
    expect(restored.blocks[0]?.leftOpenSensor).toBeUndefined();
    expect(JSON.stringify(restored.blocks[0]?.doors)).not.toContain('leftOpen');
  });

  it('"Show in Home as" is offered per door, says automations must be made again, and writes showAs only when set', async () => {
    await harness().setPlatforms([doorsSet()]);
    const { settings, page } = await openPage();
    await expect.poll(() => doorRows(page).count(), { timeout: PAGE_WAIT_MS }).toBe(3);
    await openDoorRows(page);
    // Every kind the catalog offers, in its words: for all doors, then per door after "As for all".
    const showAs = optionSpec('showAs');
    const kindLabels: Partial<Record<string, string>> = showAs.page.valueLabels;
    const kindTitles: Partial<Record<string, string>> = showAs.valueTitles;
    expect(await page.locator('#ac-showAs option').allTextContents()).toEqual(SHOW_AS_KINDS.map((kind) => kindTitles[kind]));
    expect(await page.locator('#ac-showAs-what').textContent()).toBe(kindLabels['garage-door']);
    expect(kindLabels['garage-door']).toBe('Garage door: open and close');
    expect(kindLabels.lock).toBe('Lock: unlock opens the door, lock closes it');
    const row = page.locator(`[data-door-row="${SAMPLE_FRONT_GATE_ID}"]`);
    const front = row.locator('select[data-flag="showAs"]');
    expect(await front.locator('option').allTextContents()).toEqual([
      'As for all (garage door)',
      ...SHOW_AS_KINDS.map((kind) => kindTitles[kind]),
    ]);
    const note = row.locator('[data-door-help="showAs"]');
    expect(await note.isVisible()).toBe(false);
    await front.selectOption('lock');
    await expect.poll(() => note.isVisible()).toBe(true);
    expect(await note.textContent()).toMatch(/automations and scenes made for the old kind must be made again/);
    await waitForAccepted(page);
    const saved = await harness().save(settings);
    expect(saved.blocks[0]?.showAs).toBeUndefined();
    const doors = saved.blocks[0]?.doors as Record<string, unknown>[];
    expect(doors.find((door) => door.id === SAMPLE_FRONT_GATE_ID)?.showAs).toBe('lock');
    // Only the door set: no other entry has showAs.
    expect(doors.filter((door) => 'showAs' in door).map((door) => door.id)).toEqual([SAMPLE_FRONT_GATE_ID]);
    const parsed = parseConfig(saved.blocks[0]);
    if (!parsed.ok) throw new Error(parsed.problems.join('; '));
    expect(parsed.ignored).toEqual([]);
    expect(doorOptions(parsed.config, SAMPLE_FRONT_GATE_ID).showAs).toBe('lock');
    expect(doorOptions(parsed.config, SAMPLE_GARAGE_DOOR_ID).showAs).toBe('garage-door');

    // Back to "as for all doors": nothing of it is written.
    const again = await openPage();
    await expect.poll(() => doorRows(again.page).count(), { timeout: PAGE_WAIT_MS }).toBe(3);
    await openDoorRows(again.page);
    const restoredSelect = again.page.locator(`[data-door-row="${SAMPLE_FRONT_GATE_ID}"] select[data-flag="showAs"]`);
    expect(await restoredSelect.inputValue()).toBe('lock');
    await restoredSelect.selectOption('inherit');
    await waitForAccepted(again.page);
    const restored = await harness().save(again.settings);
    expect((restored.blocks[0]?.doors as Record<string, unknown>[] | undefined)?.some((door) => 'showAs' in door) ?? false).toBe(false);
  });
});
