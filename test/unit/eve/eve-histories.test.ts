// The bridge's Eve histories: kept across a restart in their file, a damaged file said in a line, the history read at
// start handed to its door, the wait for it and the repeat at each sync, and a door that left dropped.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { EveHistories } from '../../../src/eve/eve-histories.js';
import { historyFilePath, readHistoryFile } from '../../../src/eve/history-file.js';
import { gateToggle } from '../../support/eve-download.js';
import { ManualClock } from '../../support/homebridge-double.js';
import { captureLog } from '../../support/log.js';

const MINUTE_MS = 60_000;

function bridge(path = historyFilePath(mkdtempSync(join(tmpdir(), 'eve-histories-')), 'main'), clock = new ManualClock()) {
  const log = captureLog();
  return { histories: new EveHistories({ path, log, clock }), path, clock, log };
}

/** The microtask the file's write waits for. */
const written = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe("the bridge's Eve histories", () => {
  it('keeps each door’s records in the file across a restart', async () => {
    const first = bridge();
    first.histories.door('gate');
    first.histories.read('gate', [gateToggle('2026-11-20 08:00:00', 'OPEN')]);
    await written();
    const second = bridge(first.path, first.clock);
    expect(second.histories.door('gate').ring.last()?.timeS).toBe(Date.parse('2026-11-20T08:00:00Z') / 1000);
    expect(second.log.lines).toEqual([]);
  });

  it('says a damaged file in one line and starts fresh', () => {
    const damaged = historyFilePath(mkdtempSync(join(tmpdir(), 'eve-histories-')), 'main');
    mkdirSync(dirname(damaged));
    writeFileSync(damaged, '{"version":1,"doors":');
    const { histories, log } = bridge(damaged);
    expect(histories.door('gate').ring.size).toBe(0);
    expect(log.lines).toEqual([
      { level: 'warn', text: `The Eve history file ${damaged} is damaged; every door's Eve history starts fresh.` },
    ]);
  });

  it('writes a door’s moves without its history read once 2 minutes passed, at the next sync', () => {
    const { histories, clock } = bridge();
    const door = histories.door('gate');
    door.observe(false);
    door.observe(true);
    histories.tick();
    expect(door.ring.size).toBe(0);
    clock.advance(2 * MINUTE_MS);
    histories.tick();
    expect(door.ring.size).toBe(1);
    // A late read writes nothing more: the moves since are the live ones.
    histories.read('gate', [gateToggle('2026-11-21 11:00:00', 'CLOSED')]);
    expect(door.ring.size).toBe(1);
  });

  it('repeats every door’s state at each sync, from the start on', () => {
    const { histories, clock } = bridge();
    const door = histories.door('gate');
    histories.read('gate', []);
    door.observe(false);
    clock.advance(25 * MINUTE_MS);
    histories.tick();
    expect(door.ring.size).toBe(2);
  });

  it('drops the history of a door no longer in HomeKit, from the file too', async () => {
    const { histories, path } = bridge();
    histories.door('gate');
    histories.door('garage');
    histories.read('gate', [gateToggle('2026-11-20 08:00:00', 'OPEN')]);
    histories.read('garage', [gateToggle('2026-11-20 08:00:00', 'OPEN', { doorId: 'garage' })]);
    await written();
    histories.retain(['gate']);
    await written();
    expect([...readHistoryFile(path, 10).rings.keys()]).toEqual(['gate']);
  });
});
