// The Eve histories as the platform holds them: the bridge's own file (a child bridge's apart from the main one's),
// memory when no door wanted a history at launch, and a file that cannot open costing no door anything.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { BridgeEve, eveWanted } from '../../../src/eve/bridge-eve.js';
import { historyFilePath } from '../../../src/eve/history-file.js';
import { BugLog } from '../../../src/util/bug-log.js';
import { configOf } from '../../support/config-fixtures.js';
import { gateToggle } from '../../support/eve-download.js';
import { ManualClock } from '../../support/homebridge-double.js';
import { captureLog } from '../../support/log.js';

function bridgeEve() {
  const log = captureLog();
  return { eve: new BridgeEve({ log, bugs: new BugLog(log), clock: new ManualClock() }), log };
}

/** The microtask the file's write waits for. */
const written = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe("the platform's Eve histories", () => {
  it('keeps a child bridge’s histories in a file of its own, and the main bridge’s in "main"', async () => {
    const storage = mkdtempSync(join(tmpdir(), 'bridge-eve-'));
    const [child, main] = [bridgeEve(), bridgeEve()];
    child.eve.open(storage, { platform: 'AccessControl', _bridge: { username: '0E:42:AA:10:20:30' } });
    main.eve.open(storage, { platform: 'AccessControl' });
    for (const { eve } of [child, main]) {
      eve.door('gate');
      eve.current?.read('gate', [gateToggle('2026-11-20 08:00:00', 'OPEN')]);
    }
    await written();
    expect([existsSync(historyFilePath(storage, '0E42AA102030')), existsSync(historyFilePath(storage, 'main'))]).toEqual([true, true]);
    expect([child.log.lines, main.log.lines]).toEqual([[], []]);
  });

  it('keeps a door’s history in memory when no file was opened at launch, the same history each time it is asked', () => {
    const { eve } = bridgeEve();
    expect(eve.current).toBeUndefined();
    const door = eve.door('gate');
    expect(eve.door('gate')).toBe(door);
    expect(eve.current).toBeDefined();
  });

  it('reports a file that cannot open as a bug of the plugin, and still gives each door a history', () => {
    const { eve, log } = bridgeEve();
    // Homebridge's API types the storage path as a string; one that is not must not stop the plugin's start.
    eve.open(undefined as unknown as string, {});
    expect(log.texts('error')).toEqual([expect.stringMatching(/^A bug in the plugin while opening the Eve history file/)]);
    expect(eve.current).toBeUndefined();
    expect(eve.door('gate')).toBeDefined();
  });

  it('is wanted when the bridge keeps Eve history (its default), or one door does', () => {
    expect(eveWanted(configOf({}))).toBe(true);
    expect(eveWanted(configOf({ eveHistory: false }))).toBe(false);
    expect(eveWanted(configOf({ eveHistory: false, doors: [{ id: 'gate', eveHistory: true }] }))).toBe(true);
    expect(eveWanted(configOf({ eveHistory: false, doors: [{ id: 'gate', eveHistory: false }] }))).toBe(false);
  });
});
