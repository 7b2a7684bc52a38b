// The plugin's settings in the real Homebridge UI 5.28 (Chromium): the custom page opens in its iframe, and a plain save
// of the schema-generated form writes a platform block the plugin itself accepts.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { parseConfig } from '../../src/config/index.js';
import { PLATFORM_NAME, PLUGIN_NAME } from '../../src/settings.js';
import { startUiHarness } from './ui-harness.js';
import type { UiHarness } from './ui-harness.js';

/** What a user types into the two required fields (the service address is never reached: the tests have no network). */
const ACCESS_TOKEN = 'tok-dec69c4bc335';
const BASE_URL = 'https://api.example.com';
/** The plugin's own log lines after Homebridge (re)started with it; Homebridge is already running then. */
const PLUGIN_LOG_TIMEOUT_MS = 30_000;
/** package.json displayName: the UI's card and modal title. */
const DISPLAY_NAME = 'Access Control';
/** The settings page's own heading (src/ui/public/index.html). */
const PAGE_TITLE = 'Access Control: your account, doors and real-time updates';
/** The page's script draws its option boxes as soon as it loads; this only absorbs a busy machine. */
const PAGE_DRAWN_TIMEOUT_MS = 10_000;

function harness(ui: UiHarness | undefined): UiHarness {
  if (!ui) throw new Error('the UI did not start (see beforeAll)');
  return ui;
}

describe('settings page: custom UI', () => {
  let ui: UiHarness | undefined;
  beforeAll(async () => {
    ui = await startUiHarness({ env: inject('uiEnv') });
  });
  afterAll(async () => {
    await ui?.stop();
  });

  it('opens from the plugin card with the custom page in the modal iframe', async () => {
    const h = harness(ui);
    const settings = await h.openCustomUi();
    await h.screenshot('custom-ui-open');

    expect((await settings.modal.locator('.modal-title').textContent())?.trim()).toBe(DISPLAY_NAME);
    expect(settings.frame.url()).toContain(`/api/plugins/settings-ui/${PLUGIN_NAME}/`);
    expect(await settings.iframe.isVisible()).toBe(true);
    // The plugin's own page, drawn by its own script: its title, the account's fields, and the option boxes the script
    // draws from the option catalog. An error page (or the page with its script broken) has none of them.
    expect((await settings.frame.locator('h1.ac-title').innerText()).trim()).toBe(PAGE_TITLE);
    expect(await settings.frame.locator('#ac-baseUrl, #ac-accessToken').count()).toBe(2);
    await expect
      .poll(() => settings.frame.locator('#ac-globals input, #ac-globals select').count(), { timeout: PAGE_DRAWN_TIMEOUT_MS })
      .toBeGreaterThan(0);
  });

  it('opens the settings again on the same /plugins page, and on a new one after the window changed', async () => {
    const h = harness(ui);
    const { page } = h.browser;
    let loads = 0;
    const onLoad = (): void => {
      loads += 1;
    };
    page.on('domcontentloaded', onLoad);
    try {
      await (await h.openCustomUi()).close();
      const first = loads;
      await (await h.openCustomUi()).close();
      expect(loads).toBe(first);
      // A phone's layout keeps state of its own (its menu drawer): the UI is loaded again in the new window.
      const size = page.viewportSize();
      await page.setViewportSize({ width: 390, height: 844 });
      try {
        await (await h.openCustomUi()).close();
        expect(loads).toBe(first + 1);
      } finally {
        if (size) await page.setViewportSize(size);
      }
    } finally {
      page.off('domcontentloaded', onLoad);
    }
  });

  it('closing the modal without saving writes nothing to config.json', async () => {
    const h = harness(ui);
    await h.setPlatforms([]);
    const settings = await h.openCustomUi();
    await settings.close();
    expect(await h.browser.page.locator('ngb-modal-window').count()).toBe(0);
    expect(await h.platformBlocks()).toEqual([]);
  });
});

describe('settings page: generated form (customUi dropped from the installed schema)', () => {
  let ui: UiHarness | undefined;
  beforeAll(async () => {
    ui = await startUiHarness({ env: inject('uiEnv'), generatedForm: true });
  });
  afterAll(async () => {
    await ui?.stop();
  });

  it('a plain save with only the access token and service address writes one block the plugin accepts', async () => {
    const h = harness(ui);
    await h.setPlatforms([]);
    const form = await h.openGeneratedForm();
    await form.field('accessToken').fill(ACCESS_TOKEN);
    await form.field('baseUrl').fill(BASE_URL);
    await h.screenshot('generated-form-filled');

    const saved = await h.save(form);
    console.log(
      `[ui] the generated form wrote (dialogs after Save: ${saved.dialogs.join(', ')}):\n${JSON.stringify(saved.blocks, null, 2)}`,
    );

    // First save of a platform: the UI offers a child bridge (answered "no"), then asks for a restart (closed).
    expect(saved.dialogs).toEqual(['child-bridge', 'restart']);
    expect(saved.blocks).toHaveLength(1);
    expect(saved.blocks[0]).toMatchObject({ platform: PLATFORM_NAME, accessToken: ACCESS_TOKEN, baseUrl: BASE_URL });
    expect(saved.blocks[0]).not.toHaveProperty('_bridge');
    // Accepted as a whole, and no part of it ignored (an ignored part is a warning in the user's log at every start).
    const parsed = parseConfig(saved.blocks[0]);
    const verdict = parsed.ok ? { problems: [], ignored: parsed.ignored } : { problems: parsed.problems, ignored: [] };
    expect(verdict).toEqual({ problems: [], ignored: [] });
  });

  it("presses Save once more when the UI's save request fails in the browser, and says so when it fails again", async () => {
    const h = harness(ui);
    const block = { platform: PLATFORM_NAME, accessToken: ACCESS_TOKEN, baseUrl: BASE_URL };
    await h.setPlatforms([block]);
    const { page } = h.browser;
    let failing = 1;
    let aborted = 0;
    // The connection reset CI saw: the request never reaches the UI's server, the browser gets no answer.
    await page.route('**/api/config-editor/plugin/**', async (route) => {
      if (route.request().method() !== 'POST' || failing <= 0) return route.continue();
      failing -= 1;
      aborted += 1;
      return route.abort('connectionreset');
    });
    try {
      const saved = await h.save(await h.openGeneratedForm());
      expect({ aborted, dialogs: saved.dialogs, written: saved.blocks.length }).toEqual({ aborted: 1, dialogs: ['restart'], written: 1 });
      expect(saved.blocks[0]).toMatchObject(block);

      failing = 2;
      const error = await h.save(await h.openGeneratedForm()).then(
        () => undefined,
        (err: unknown) => (err instanceof Error ? err.message : String(err)),
      );
      expect(error).toMatch(/the UI's save request failed 2 times: net::ERR_CONNECTION_RESET/);
      expect(error).toMatch(
        /Requests that went wrong:\n[^]*POST \/api\/config-editor\/plugin\/homebridge-access-control failed: net::ERR_CONNECTION_RESET/,
      );
    } finally {
      await page.unrouteAll();
    }
  });

  it('reopened, the form shows the saved values; Save + Restart runs the plugin without the token in the log', async () => {
    const h = harness(ui);
    // The block the plain save writes: this test starts from it, so it passes alone (vitest -t) too.
    await h.setPlatforms([{ platform: PLATFORM_NAME, accessToken: ACCESS_TOKEN, baseUrl: BASE_URL }]);
    const form = await h.openGeneratedForm();
    expect(await form.field('accessToken').inputValue()).toBe(ACCESS_TOKEN);
    expect(await form.field('baseUrl').inputValue()).toBe(BASE_URL);

    const mark = h.lineCount();
    const saved = await h.save(form, { restart: true });
    expect(saved.dialogs).toEqual(['restart']);
    expect(saved.blocks).toHaveLength(1);

    // Homebridge is running again (h.save waited for it); the plugin's platform was set up from the saved block.
    await h.waitForLog(new RegExp(`\\[${DISPLAY_NAME}\\] `), PLUGIN_LOG_TIMEOUT_MS, { fromLine: mark });
    await h.browser.gotoPlugins();
    await h.screenshot('generated-form-after-restart');
    expect(h.log()).not.toContain(ACCESS_TOKEN);
  });
});
