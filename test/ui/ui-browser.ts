// Drives Debian's Chromium through playwright-core: the /plugins page, a plugin's settings modal, its Save and follow-up dialogs.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { BrowserContext, Frame, Locator, Page, Request, Response } from 'playwright-core';

import { PLUGIN_NAME } from '../../src/settings.js';
import { REPO_ROOT } from './ui-env.js';

/** Debian's Chromium (apt-get install chromium); never a Playwright-downloaded browser. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/**
 * Headless Chromium as root on a closed network: without the background-networking flags it keeps trying Google's
 * hosts; --no-sandbox because CI runs as root.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** Longest wait for Chromium to start. */
const BROWSER_LAUNCH_TIMEOUT_MS = 60_000;
/** Default time-out of every Playwright action and wait (the UI answers within a second or two here). */
export const UI_ACTION_TIMEOUT_MS = 30_000;
/** Page navigation time-out (the UI's first load fetches ~3 MB of scripts). */
const NAVIGATION_TIMEOUT_MS = 60_000;
/** The custom UI's iframe appears once the UI has started the plugin's homebridge-ui/server.js. */
const CUSTOM_UI_TIMEOUT_MS = 60_000;
/** After Save the UI writes config.json, closes the modal and opens a child-bridge or restart dialog. */
const FOLLOW_UP_TIMEOUT_MS = 15_000;
/** Presses of Save when the UI's POST fails in the browser without an answer (the UI then says "Failed to save config" and a user presses Save again). */
const SAVE_ATTEMPTS = 2;
/** The UI's API requests that went wrong, kept for the error a failed step throws. */
const NETWORK_LOG_LINES = 10;
/** Browser window size (px): the UI's desktop layout. */
export const VIEWPORT = { width: 1280, height: 900 } as const;
/** Screenshots land here (CI keeps reports/). */
export const SCREENSHOT_DIR = path.join(REPO_ROOT, 'reports', 'ui-screenshots');

/** Selectors of homebridge-config-ui-x 5.28.0 (read off its DOM; the card's and dialogs' labels are English: locale en-US). */
export const SELECTORS = {
  /** One card per installed plugin on /plugins; filter by the package name it shows. */
  pluginCard: 'app-plugin-card',
  /** Every modal (ng-bootstrap), role="dialog". */
  modal: 'ngb-modal-window',
  /** Inside the settings modal: the custom UI (customUi: true) ... */
  customUiComponent: 'app-custom-plugins',
  /** ... its iframe (src /api/plugins/settings-ui/<plugin>/index.html?ticket=...) ... */
  customUiIframe: 'iframe.plugin-iframe',
  /** ... or the schema-generated form (angular json-schema-form), whose inputs carry name="<property>". */
  generatedFormComponent: 'app-plugin-config',
  generatedForm: 'json-schema-form form',
  /** Footer of a modal, holding its Close and Save buttons. */
  modalFooter: '.modal-footer',
  /** Shown after the first Save of a platform plugin (the UI recommends a child bridge; only a Save button). */
  childBridgeDialog: 'app-plugin-bridge',
  /** "Use Child Bridge" switch in that dialog (the UI turns it on by default). */
  childBridgeSwitch: '#toggleExternalBridgeInput_0',
  /** "Restart Required" dialog shown after later saves (Close / Restart). */
  restartDialog: 'app-restart-homebridge',
  /** A toast (ngx-toastr), e.g. "Failed to save config", over the page for a while. */
  toast: '.ngx-toastr',
} as const;
/** Accessible names of the card's settings button: "Set Up" before the plugin has a config block, "Plugin Config" after. */
const CARD_SETTINGS_BUTTON = /^(Set Up|Plugin Config)$/;
/** The card's ⋮ menu, and its item that always opens the settings (the top button turns into "Set Up Child Bridge"). */
const CARD_MENU_BUTTON = 'Plugin Actions';
const CARD_MENU_SETTINGS_ITEM = 'Plugin Config';

export type SettingsKind = 'custom' | 'generated';
export type FollowUpDialog = 'child-bridge' | 'restart';

export interface SaveOptions {
  /** How to answer the "Use Child Bridge" dialog after a first save: default false (plain block, no `_bridge`). */
  childBridge?: boolean;
  /** Press Restart (true) or Close (default) in the "Restart Required" dialog. */
  restart?: boolean;
}

export interface SaveResult {
  /** The dialogs the UI showed after Save, in order. */
  dialogs: FollowUpDialog[];
  /** True when Restart was pressed (the page is then on /restart while Homebridge restarts). */
  restarted: boolean;
}

interface SettingsModalBase {
  /** The settings modal (ngb-modal-window). */
  readonly modal: Locator;
  /** The modal's own Save button (disabled while the UI or the custom page finds the settings invalid). */
  readonly saveButton: Locator;
  /** Presses the modal's own Save, waits for the UI to write config.json, answers the dialogs that follow. */
  save(opts?: SaveOptions): Promise<SaveResult>;
  /** Presses the modal's Close and waits for it to go. */
  close(): Promise<void>;
}

export interface CustomUiSettings extends SettingsModalBase {
  readonly kind: 'custom';
  /** The plugin's own page (homebridge-ui/public/index.html) inside the modal's iframe. */
  readonly frame: Frame;
  /** The iframe element, e.g. to check its height. */
  readonly iframe: Locator;
}

export interface GeneratedFormSettings extends SettingsModalBase {
  readonly kind: 'generated';
  /** The schema-generated form. */
  readonly form: Locator;
  /** The input, select or textarea for a schema property (by its name attribute, e.g. "accessToken"; nested ones use their last key). */
  field(name: string): Locator;
}

export type PluginSettings = CustomUiSettings | GeneratedFormSettings;

export interface UiBrowser {
  readonly context: BrowserContext;
  readonly page: Page;
  /** Console errors and uncaught exceptions of the page and its frames (the custom UI included), as they happened. */
  consoleErrors(): string[];
  /** Opens /plugins and waits for the plugin's card. */
  gotoPlugins(pluginName?: string): Promise<void>;
  /** Opens the plugin's settings from its card on /plugins (loaded afresh unless nothing is left over from an earlier step), waits for the custom UI or form. */
  openSettings(pluginName?: string): Promise<PluginSettings>;
  /** PNG of the whole page, the open modal at full height included; returns the file path. */
  screenshot(name: string): Promise<string>;
  /** Closes Chromium and removes its profile. Idempotent. */
  close(): Promise<void>;
}

export interface LaunchUiBrowserOptions {
  /** Base address of the UI. */
  url: string;
  /** Text appended to errors (the UI's log tail), so a failure says what the server did. */
  diagnostics?: () => string;
  /** Screenshot folder (default SCREENSHOT_DIR). */
  screenshotDir?: string;
}

function safeFileName(name: string): string {
  return name.replace(/[^a-zA-Z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'screenshot';
}

/** Launches headless Chromium with a fresh profile. */
export async function launchUiBrowser(opts: LaunchUiBrowserOptions): Promise<UiBrowser> {
  const profileDir = await mkdtemp(path.join(tmpdir(), 'hb-ui-chromium-'));
  const screenshotDir = opts.screenshotDir ?? SCREENSHOT_DIR;
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profileDir, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: VIEWPORT,
      locale: 'en-US',
      // As a user who asked for less motion: the UI's modals open and close without their fade, which Chromium draws
      // frame by frame in software here (half its CPU for a settings modal opened and closed). The plugin's page has no
      // motion of its own, so what the tests check of it is the same.
      reducedMotion: 'reduce',
      timeout: BROWSER_LAUNCH_TIMEOUT_MS,
    });
  } catch (err) {
    await rm(profileDir, { recursive: true, force: true });
    const hint = `Is Chromium installed at ${CHROMIUM_PATH}? (apt-get install -y chromium)`;
    throw new Error(`Chromium did not start: ${err instanceof Error ? err.message : String(err)}\n${hint}`, { cause: err });
  }
  context.setDefaultTimeout(UI_ACTION_TIMEOUT_MS);
  context.setDefaultNavigationTimeout(NAVIGATION_TIMEOUT_MS);
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (err) => errors.push(`uncaught: ${err.message}`));
  // Which request went wrong: the console says only "Failed to load resource" and the status.
  const network: string[] = [];
  const apiPath = (url: string): string => new URL(url).pathname;
  page.on('requestfailed', (r) => network.push(`${r.method()} ${apiPath(r.url())} failed: ${r.failure()?.errorText ?? '?'}`));
  page.on('response', (r) => {
    if (r.status() >= 400) network.push(`${r.request().method()} ${apiPath(r.url())} answered ${r.status()}`);
  });

  const explain = (what: string, err: unknown): Error => {
    const reason = err instanceof Error ? err.message : String(err);
    const consoleText = errors.length > 0 ? `\nBrowser console errors:\n${errors.slice(-10).join('\n')}` : '';
    const networkText = network.length > 0 ? `\nRequests that went wrong:\n${network.slice(-NETWORK_LOG_LINES).join('\n')}` : '';
    const server = opts.diagnostics ? `\nUI log:\n${opts.diagnostics()}` : '';
    return new Error(`${what}: ${reason}\nPage: ${page.url()}${consoleText}${networkText}${server}`, { cause: err });
  };

  const card = (pluginName: string): Locator => page.locator(SELECTORS.pluginCard).filter({ hasText: pluginName });

  // The window the UI was loaded in: its colour scheme (read once, at load) and its size (a phone's layout keeps its own
  // state, its menu drawer over the page): another one (page.emulateMedia, setViewportSize) needs a new load.
  let loadedIn: string | undefined;
  const windowNow = async (): Promise<string> =>
    `${JSON.stringify(page.viewportSize())} ${await page.evaluate<string>(`matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'`)}`;

  const gotoPlugins = async (pluginName = PLUGIN_NAME): Promise<void> => {
    try {
      await page.goto(`${opts.url}/plugins`);
      loadedIn = await windowNow();
      // With auth "none" the UI signs in by itself (POST /api/auth/noauth); a login form here means it did not.
      await card(pluginName).getByRole('button', { name: CARD_MENU_BUTTON }).waitFor();
    } catch (err) {
      throw explain(`The /plugins page did not show ${pluginName}'s card`, err);
    }
  };

  const followUps = async (options: SaveOptions): Promise<SaveResult> => {
    const dialogs: FollowUpDialog[] = [];
    const dialog = page.locator(`${SELECTORS.modal} ${SELECTORS.childBridgeDialog}, ${SELECTORS.modal} ${SELECTORS.restartDialog}`).first();
    for (;;) {
      await dialog.waitFor({ timeout: FOLLOW_UP_TIMEOUT_MS });
      if ((await page.locator(SELECTORS.childBridgeDialog).count()) > 0) {
        dialogs.push('child-bridge');
        const bridgeDialog = page.locator(SELECTORS.childBridgeDialog);
        const toggle = bridgeDialog.locator(SELECTORS.childBridgeSwitch);
        if ((await toggle.isChecked()) !== (options.childBridge ?? false)) {
          // The checkbox itself is hidden behind a styled switch: click its label as a user would.
          await bridgeDialog.locator(`label[for="${SELECTORS.childBridgeSwitch.slice(1)}"]`).click();
        }
        const written = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes('/api/config-editor/plugin/'));
        await bridgeDialog.locator(SELECTORS.modalFooter).getByRole('button', { name: 'Save', exact: true }).click();
        const response = await written;
        if (!response.ok()) throw new Error(`the child-bridge dialog's save answered ${response.status()}: ${await response.text()}`);
        await bridgeDialog.waitFor({ state: 'detached' });
        continue;
      }
      dialogs.push('restart');
      const restartDialog = page.locator(SELECTORS.restartDialog);
      const restart = options.restart ?? false;
      await restartDialog
        .locator(SELECTORS.modalFooter)
        .getByRole('button', { name: restart ? 'Restart' : 'Close', exact: true })
        .click();
      if (!restart) await restartDialog.waitFor({ state: 'detached' });
      return { dialogs, restarted: restart };
    }
  };

  const settingsModal = (kindSelector: string): Locator => page.locator(SELECTORS.modal).filter({ has: page.locator(kindSelector) });

  const makeActions = (modal: Locator, pluginName: string): SettingsModalBase => {
    const saveButton = modal.locator(SELECTORS.modalFooter).getByRole('button', { name: 'Save', exact: true });
    return {
      modal,
      saveButton,
      async save(options = {}) {
        try {
          await saveButton.waitFor();
          if (!(await saveButton.isEnabled())) throw new Error('the Save button is disabled (the UI finds the form invalid)');
          const isSave = (r: Request): boolean =>
            r.method() === 'POST' && r.url().includes(`/api/config-editor/plugin/${encodeURIComponent(pluginName)}`);
          for (let attempt = 1; ; attempt++) {
            const answer = saveAnswer(page, isSave);
            // Awaited below; a click that throws first must not leave its time-out unhandled.
            answer.catch(() => undefined);
            // A click on the button itself, not at the point where it was: the custom page resizes its iframe as it redraws,
            // which moves the footer, and a pointer click aimed a moment before landed on the page (CI: no request sent).
            await saveButton.dispatchEvent('click');
            const result = await answer;
            if ('failure' in result && attempt < SAVE_ATTEMPTS) {
              console.log(`[ui] the UI's save request failed in the browser (${result.failure}): Save pressed again, as a user would`);
              continue;
            }
            if ('failure' in result) throw new Error(`the UI's save request failed ${SAVE_ATTEMPTS} times: ${result.failure}`);
            const { response } = result;
            if (!response.ok()) throw new Error(`POST ${response.url()} answered ${response.status()}: ${await response.text()}`);
            break;
          }
          await modal.waitFor({ state: 'detached' });
          return await followUps(options);
        } catch (err) {
          throw explain(`Saving ${pluginName}'s settings failed`, err);
        }
      },
      async close() {
        try {
          await modal.locator(SELECTORS.modalFooter).getByRole('button', { name: 'Close', exact: true }).click();
          await modal.waitFor({ state: 'detached' });
        } catch (err) {
          throw explain(`Closing ${pluginName}'s settings failed`, err);
        }
      },
    };
  };

  const openSettings = async (pluginName = PLUGIN_NAME): Promise<PluginSettings> => {
    // The /plugins page as it is when nothing is left over from an earlier step (no modal, no toast over the card, the same
    // window); else a fresh one. A load of the UI costs the browser half as much CPU as opening the settings.
    const leftOver = await page.locator(`${SELECTORS.modal}, ${SELECTORS.toast}`).count();
    if (new URL(page.url()).pathname === '/plugins' && leftOver === 0 && loadedIn === (await windowNow())) {
      try {
        await card(pluginName).getByRole('button', { name: CARD_MENU_BUTTON }).waitFor();
      } catch (err) {
        throw explain(`The /plugins page no longer shows ${pluginName}'s card`, err);
      }
    } else {
      await gotoPlugins(pluginName);
    }
    const pluginCard = card(pluginName);
    try {
      await pluginCard.getByRole('button', { name: CARD_MENU_BUTTON }).waitFor();
      const direct = pluginCard.getByRole('button', { name: CARD_SETTINGS_BUTTON });
      if ((await direct.count()) > 0) {
        await direct.first().click();
      } else {
        await pluginCard.getByRole('button', { name: CARD_MENU_BUTTON }).click();
        await pluginCard.getByRole('button', { name: CARD_MENU_SETTINGS_ITEM, exact: true }).click();
      }
      const anyModal = page.locator(SELECTORS.modal).filter({
        has: page.locator(`${SELECTORS.customUiComponent}, ${SELECTORS.generatedFormComponent}`),
      });
      await anyModal.waitFor();
    } catch (err) {
      throw explain(`${pluginName}'s settings did not open from its card`, err);
    }

    const customModal = settingsModal(SELECTORS.customUiComponent);
    if ((await customModal.count()) > 0) {
      const iframe = customModal.locator(SELECTORS.customUiIframe);
      try {
        // The UI sets src once the plugin's homebridge-ui/server.js said it is ready.
        await iframe.and(page.locator(`[src*="/api/plugins/settings-ui/${encodeURIComponent(pluginName)}/"]`)).waitFor({
          state: 'attached',
          timeout: CUSTOM_UI_TIMEOUT_MS,
        });
        const handle = await iframe.elementHandle();
        const frame = await handle.contentFrame();
        if (!frame) throw new Error('the iframe has no content frame');
        await frame.waitForLoadState('load');
        await frame.locator('body').waitFor({ state: 'attached' });
        return { kind: 'custom', frame, iframe, ...makeActions(customModal, pluginName) };
      } catch (err) {
        throw explain(`${pluginName}'s custom settings page did not load in its iframe`, err);
      }
    }

    const formModal = settingsModal(SELECTORS.generatedFormComponent);
    const form = formModal.locator(SELECTORS.generatedForm);
    try {
      await form.waitFor();
    } catch (err) {
      throw explain(`${pluginName}'s generated settings form did not render`, err);
    }
    return {
      kind: 'generated',
      form,
      field: (name: string) => form.locator(`input[name="${name}"], select[name="${name}"], textarea[name="${name}"]`),
      ...makeActions(formModal, pluginName),
    };
  };

  const screenshot = async (name: string): Promise<string> => {
    await mkdir(screenshotDir, { recursive: true });
    const file = path.join(screenshotDir, `${safeFileName(name)}.png`);
    // A modal scrolls inside its fixed overlay, so fullPage alone cuts it off: grow the window to the modal's height.
    // A string, not a function: this project compiles without the DOM library.
    const height = await page.evaluate<number>(
      `Math.max(document.documentElement.scrollHeight, ...Array.from(document.querySelectorAll('${SELECTORS.modal}'), (m) => m.scrollHeight))`,
    );
    const viewport = page.viewportSize() ?? VIEWPORT;
    if (height > viewport.height) await page.setViewportSize({ width: viewport.width, height });
    try {
      await page.screenshot({ path: file, fullPage: true });
    } finally {
      if (height > viewport.height) await page.setViewportSize(viewport);
    }
    return file;
  };

  let closing: Promise<void> | undefined;
  return {
    context,
    page,
    consoleErrors: () => [...errors],
    gotoPlugins,
    openSettings,
    screenshot,
    close() {
      closing ??= (async () => {
        await context.close();
        await rm(profileDir, { recursive: true, force: true });
      })();
      return closing;
    },
  };
}

/**
 * The answer to the UI's save request: its response, or its failure in the browser (no answer at all: a reset connection,
 * say); rejects when neither comes within the action time-out.
 */
function saveAnswer(page: Page, isSave: (r: Request) => boolean): Promise<{ response: Response } | { failure: string }> {
  return new Promise((resolve, reject) => {
    const stop = (): void => {
      clearTimeout(timer);
      page.off('response', onResponse);
      page.off('requestfailed', onFailed);
    };
    const onResponse = (response: Response): void => {
      if (!isSave(response.request())) return;
      stop();
      resolve({ response });
    };
    const onFailed = (request: Request): void => {
      if (!isSave(request)) return;
      stop();
      resolve({ failure: request.failure()?.errorText ?? 'no reason given' });
    };
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`no answer to the UI's save request within ${UI_ACTION_TIMEOUT_MS} ms (was it sent?)`));
    }, UI_ACTION_TIMEOUT_MS);
    page.on('response', onResponse);
    page.on('requestfailed', onFailed);
  });
}
