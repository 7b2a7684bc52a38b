// A mistake in an optional setting costs that setting only (issue 8 C): one error line each at start, and the
// doors still sync; only a missing or unusable token or address stops syncing.
import { afterEach, describe, expect, it } from 'vitest';

import type { AccessControlPlatform } from '../../src/platform.js';
import type { AccessControlSimulator } from '../../dev/simulator/server.js';
import { SAMPLE_FRONT_GATE_ID } from '../../dev/simulator/server.js';
import { HomebridgeDouble, ManualClock } from '../support/homebridge-double.js';
import { captureLog } from '../support/log.js';
import { useSimulator } from '../support/simulator.js';

const TOKEN = 'config-platform-token-6b1e2d';

let sim: AccessControlSimulator;
const running: AccessControlPlatform[] = [];

useSimulator({ accessToken: TOKEN, travelTimeMs: 20 }, (started) => (sim = started));

afterEach(async () => {
  for (const platform of running.splice(0)) {
    await platform.shutdown();
  }
});

async function boot(extra: Record<string, unknown>, accessToken = TOKEN) {
  const api = new HomebridgeDouble();
  const clock = new ManualClock();
  const log = captureLog();
  const platform = api.boot({ platform: 'AccessControl', accessToken, baseUrl: sim.baseUrl, ...extra }, log, clock);
  running.push(platform);
  clock.advance(clock.nextDueInMs ?? 0);
  await platform.syncSettled();
  return { api, log };
}

describe('a config with mistakes in optional settings', () => {
  it('logs one error line per ignored setting and syncs every door with the rest', async () => {
    const { api, log } = await boot({
      pollInterval: 2,
      readOnly: true,
      webhook: { enabled: true, port: 70000, apiKey: TOKEN },
      doors: [{ id: SAMPLE_FRONT_GATE_ID, name: 'Street Gate', leftOpenAfter: -1 }],
      excludeDeviceIds: 'device-1',
    });
    const errors = log.lines.filter((line) => line.level === 'error').map((line) => line.text);
    expect(errors).toEqual([
      'In the configuration, pollInterval must be at least 5 seconds; the default, 15 seconds, is used.',
      'In the configuration, webhook.port must be between 1 and 65535 and webhook.apiKey must be the 96-character hexadecimal key the service issued; webhooks are off until it is fixed.',
      `In the configuration, doors.0 (id "${SAMPLE_FRONT_GATE_ID}") leftOpenAfter must be at least 1 seconds; that setting is ignored for this door.`,
      'In the configuration, excludeDeviceIds must be a list of ids; this filter is ignored, so it keeps no door out.',
    ]);
    expect(log.lines.map((line) => line.text)).toContain('Syncing the account every 15 s.');
    expect(api.registered.size).toBe(3);
    // What was readable still applies: the door's own name, and read-only for all.
    const names = [...api.registered.values()].map((accessory) => accessory.displayName);
    expect(names).toContain('Street Gate');
    expect(JSON.stringify(log.lines)).not.toContain(TOKEN);
  });

  it('still stops syncing, in one line, when the token cannot be used', async () => {
    const { api, log } = await boot({ pollInterval: 2 }, `${TOKEN}\n`.replace('\n', '\u2019'));
    const errors = log.lines.filter((line) => line.level === 'error').map((line) => line.text);
    expect(errors).toEqual([
      'The configuration is not valid, so no door is synced until it is fixed: accessToken holds a character that cannot be sent in an HTTP header (a line break, a control character, or one outside Latin-1 such as a curly quote or an emoji); paste the token again; pollInterval must be at least 5 seconds.',
    ]);
    expect(api.registered.size).toBe(0);
    expect(JSON.stringify(log.lines)).not.toContain(TOKEN);
  });
});

describe('battery information on the Homebridge double', () => {
  const batteryOf = (api: HomebridgeDouble, doorId: string) =>
    [...api.registered.values()].find((accessory) => accessory.context.doorId === doorId)?.getService(api.hap.Service.Battery);

  it('shows the sensor door\'s battery by default, and none for it with hideBattery, for all doors or for that door', async () => {
    const shown = await boot({});
    expect(batteryOf(shown.api, SAMPLE_FRONT_GATE_ID)?.getCharacteristic(shown.api.hap.Characteristic.BatteryLevel).value).toBe(85);
    for (const extra of [{ hideBattery: true }, { doors: [{ id: SAMPLE_FRONT_GATE_ID, hideBattery: true }] }]) {
      const { api, log } = await boot(extra);
      expect(api.registered.size).toBe(3);
      expect(batteryOf(api, SAMPLE_FRONT_GATE_ID)).toBeUndefined();
      expect(log.lines.filter((line) => line.level === 'error')).toEqual([]);
    }
  });
});
