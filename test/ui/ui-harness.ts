// The browser test harness: the real Homebridge UI with the packed plugin, Chromium on its /plugins page, config.json read back.
import { isDeepStrictEqual } from 'node:util';

import { afterAll, beforeAll, inject } from 'vitest';

import { PLATFORM_NAME, PLUGIN_NAME } from '../../src/settings.js';
import { launchUiBrowser } from './ui-browser.js';
import type { PluginSettings, SaveOptions, SaveResult, UiBrowser } from './ui-browser.js';
import { prepareUiEnv } from './ui-env.js';
import type { UiEnv } from './ui-env.js';
import { HOMEBRIDGE_READY_LINE, HOMEBRIDGE_START_TIMEOUT_MS, startUiServer } from './ui-server.js';
import type { PlatformBlock, UiServer } from './ui-server.js';
import type { WaitForLogOptions } from './log-follower.js';

export { SELECTORS, SCREENSHOT_DIR } from './ui-browser.js';
export type { CustomUiSettings, FollowUpDialog, GeneratedFormSettings, PluginSettings, SaveOptions, SaveResult } from './ui-browser.js';
export { prepareUiEnv } from './ui-env.js';
export type { UiEnv } from './ui-env.js';
export type { ConfigJson, PlatformBlock } from './ui-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Set by test/ui/global-setup.ts: pass it as `startUiHarness({ env: inject('uiEnv') })`. */
    uiEnv: UiEnv;
  }
}

/** After Restart, Homebridge takes ~5 s to stop and hb-service waits ~5 s before starting it again. */
const RESTART_TIMEOUT_MS = 60_000 + HOMEBRIDGE_START_TIMEOUT_MS;

export interface UiHarnessOptions {
  /** From vitest's globalSetup (`inject('uiEnv')`); default: build, pack and install now (for scripts outside vitest). */
  env?: UiEnv;
  /** Platform blocks in config.json at start, besides the UI's own; default none (the plugin is not set up yet). */
  platforms?: PlatformBlock[];
  /** Show the UI's schema-generated form instead of the custom page (drops `customUi` from this run's copy of the schema). */
  generatedForm?: boolean;
  /** Start Homebridge with -D. */
  homebridgeDebug?: boolean;
  /** Echo the UI's log lines to stdout (default env UI_ECHO === '1'). */
  echoLog?: boolean;
}

export interface HarnessSaveResult extends SaveResult {
  /** The AccessControl entries of `platforms` in config.json after the save. */
  blocks: PlatformBlock[];
}

export interface UiHarness {
  readonly env: UiEnv;
  readonly server: UiServer;
  readonly browser: UiBrowser;
  /** Base address of the UI. */
  readonly url: string;
  /** Opens /plugins, then the plugin's settings from its card: `{ kind: 'custom', frame, iframe, modal, save, close }` or `{ kind: 'generated', form, field, modal, save, close }`. */
  openSettings(): Promise<PluginSettings>;
  /** Like openSettings, but fails unless the custom page (iframe) is shown. */
  openCustomUi(): Promise<Extract<PluginSettings, { kind: 'custom' }>>;
  /** Like openSettings, but fails unless the generated form is shown (start with `generatedForm: true`). */
  openGeneratedForm(): Promise<Extract<PluginSettings, { kind: 'generated' }>>;
  /** settings.save(opts), then reads back the AccessControl blocks; with `restart: true` also waits for Homebridge to run again. */
  save(settings: PluginSettings, opts?: SaveOptions): Promise<HarnessSaveResult>;
  /** The `platforms` entries with `"platform": "AccessControl"` (or `alias`) in config.json now. */
  platformBlocks(alias?: string): Promise<PlatformBlock[]>;
  /**
   * Writes `blocks` as the plugin's entries of config.json through the UI's own API (what its Save calls), checks they
   * are there and returns them as read back: the saved settings a test starts from, so it passes alone (`vitest -t`) as
   * in its file. The running Homebridge is not restarted, so the plugin does not run them (restartHomebridge does).
   */
  setPlatforms(blocks: PlatformBlock[]): Promise<PlatformBlock[]>;
  /** Restarts Homebridge through the UI's API (its Restart button) and resolves once it runs again. */
  restartHomebridge(): Promise<void>;
  /** The accessories in Homebridge's cache, as the UI lists them (the settings page reads the same list). */
  cachedAccessories(): Promise<{ displayName?: string; platform?: string; context?: Record<string, unknown> }[]>;
  /** The UI's log (UI, supervisor and Homebridge lines with the plugin's), ANSI codes stripped. */
  log(): string;
  lineCount(): number;
  waitForLog(re: RegExp, timeoutMs: number, opts?: WaitForLogOptions): Promise<string>;
  /** PNG of the page with the modal into reports/ui-screenshots/<name>.png; returns the path. */
  screenshot(name: string): Promise<string>;
  /** Closes Chromium, stops hb-service and Homebridge, removes the temp storage. Idempotent; call in afterAll. */
  stop(): Promise<void>;
}

/**
 * Registers the hooks where it is called: the UI started (with the global setup's env) before the file's tests, after any
 * hook registered earlier (a simulator's), and stopped after them, before that simulator; returns the running harness.
 */
export function useUiHarness(): () => UiHarness {
  let ui: UiHarness | undefined;
  beforeAll(async () => {
    ui = await startUiHarness({ env: inject('uiEnv') });
  });
  afterAll(async () => {
    await ui?.stop();
  });
  return () => {
    if (!ui) throw new Error('the UI did not start (see beforeAll)');
    return ui;
  };
}

/** Starts the UI (and Homebridge) with the packed plugin and opens Chromium on it. */
export async function startUiHarness(opts: UiHarnessOptions = {}): Promise<UiHarness> {
  const env = opts.env ?? (await prepareUiEnv());
  const server = await startUiServer({
    env,
    platforms: opts.platforms ?? [],
    generatedForm: opts.generatedForm ?? false,
    homebridgeDebug: opts.homebridgeDebug ?? false,
    ...(opts.echoLog === undefined ? {} : { echoLog: opts.echoLog }),
  });
  let browser: UiBrowser;
  try {
    browser = await launchUiBrowser({ url: server.url, diagnostics: () => server.log().split('\n').slice(-40).join('\n') });
  } catch (err) {
    await server.stop();
    throw err;
  }

  const platformBlocks = (alias = PLATFORM_NAME): Promise<PlatformBlock[]> => server.platformBlocks(alias);
  let stopping: Promise<void> | undefined;

  return {
    env,
    server,
    browser,
    url: server.url,
    openSettings: () => browser.openSettings(),
    async openCustomUi() {
      if (env.customUiProblem !== undefined) throw new Error(`No custom settings page to open: ${env.customUiProblem}`);
      const settings = await browser.openSettings();
      if (settings.kind !== 'custom')
        throw new Error('The settings modal shows the generated form, not the custom page (is customUi true in config.schema.json?)');
      return settings;
    },
    async openGeneratedForm() {
      const settings = await browser.openSettings();
      if (settings.kind !== 'generated')
        throw new Error('The settings modal shows the custom page: start the harness with generatedForm: true');
      return settings;
    },
    async save(settings, saveOpts = {}) {
      const mark = server.lineCount();
      const result = await settings.save(saveOpts);
      if (result.restarted) await server.waitForLog(HOMEBRIDGE_READY_LINE, RESTART_TIMEOUT_MS, { fromLine: mark });
      return { ...result, blocks: await platformBlocks() };
    },
    platformBlocks,
    async setPlatforms(blocks) {
      const response = await server.api(`/api/config-editor/plugin/${encodeURIComponent(PLUGIN_NAME)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(blocks),
      });
      if (!response.ok) throw new Error(`setting the config answered ${response.status}: ${await response.text()}`);
      const written = await platformBlocks();
      if (!isDeepStrictEqual(written, JSON.parse(JSON.stringify(blocks)))) {
        throw new Error(`config.json holds ${JSON.stringify(written)} after setting ${JSON.stringify(blocks)}`);
      }
      return written;
    },
    async restartHomebridge() {
      const mark = server.lineCount();
      const response = await server.api('/api/server/restart', { method: 'PUT' });
      if (!response.ok) throw new Error(`restarting Homebridge answered ${response.status}: ${await response.text()}`);
      await server.waitForLog(HOMEBRIDGE_READY_LINE, RESTART_TIMEOUT_MS, { fromLine: mark });
    },
    async cachedAccessories() {
      const response = await server.api('/api/server/cached-accessories');
      if (!response.ok) throw new Error(`the cached accessories answered ${response.status}: ${await response.text()}`);
      return (await response.json()) as { displayName?: string; platform?: string; context?: Record<string, unknown> }[];
    },
    log: () => server.log(),
    lineCount: () => server.lineCount(),
    waitForLog: (re, timeoutMs, waitOpts) => server.waitForLog(re, timeoutMs, waitOpts),
    screenshot: (name) => browser.screenshot(name),
    stop() {
      stopping ??= (async () => {
        try {
          await browser.close();
        } finally {
          await server.stop();
        }
      })();
      return stopping;
    },
  };
}
