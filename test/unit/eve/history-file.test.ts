// The bridge's Eve history file: written whole or not at all, a damaged file or door starting fresh with a line.
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { EveRing } from '../../../src/eve/eve-ring.js';
import { historyFilePath, readHistoryFile, writeHistoryFile } from '../../../src/eve/history-file.js';

const REF = 1_780_000_000;

function ringOf(...times: number[]): EveRing {
  const ring = new EveRing(REF, 100);
  times.forEach((t, i) => ring.add(REF + t, i % 2, { opening: i % 2 === 1 }));
  return ring;
}

const storage = (): string => mkdtempSync(join(tmpdir(), 'eve-history-'));

describe('the Eve history file', () => {
  it("is the bridge's own, in the plugin's folder of Homebridge's storage", () => {
    expect(historyFilePath('/var/lib/homebridge', '0E:AA:CE:12:34:56')).toBe(
      '/var/lib/homebridge/access-control/eve-history-0EAACE123456.json',
    );
  });

  it('reads back every door it wrote; a missing file is no history, and no line', () => {
    const path = historyFilePath(storage(), 'main');
    expect(readHistoryFile(path, 100)).toEqual({ rings: new Map(), problems: [] });
    writeHistoryFile(
      path,
      new Map([
        ['a', ringOf(1, 2)],
        ['b', ringOf(5)],
      ]),
    );
    const read = readHistoryFile(path, 100);
    expect(read.problems).toEqual([]);
    expect([...read.rings.keys()]).toEqual(['a', 'b']);
    expect(read.rings.get('a')?.toBytes().equals(ringOf(1, 2).toBytes())).toBe(true);
  });

  it('keeps the previous file whole when the process dies before the rename, and leaves only the temporary file', () => {
    const folder = storage();
    const path = historyFilePath(folder, 'main');
    writeHistoryFile(path, new Map([['a', ringOf(1)]]));
    const killedBeforeRename = (): never => {
      throw new Error('killed mid-write');
    };
    expect(() => writeHistoryFile(path, new Map([['a', ringOf(1, 2, 3)]]), killedBeforeRename)).toThrow('killed mid-write');
    const read = readHistoryFile(path, 100);
    expect(read.rings.get('a')?.lastNumber).toBe(2);
    expect(readdirSync(join(folder, 'access-control')).some((name) => name.endsWith('.tmp'))).toBe(true);
  });

  it('starts every door fresh, with one line, from a file that is not the plugin’s JSON', () => {
    const path = historyFilePath(storage(), 'main');
    writeHistoryFile(path, new Map([['a', ringOf(1)]]));
    writeFileSync(path, readFileSync(path, 'utf8').slice(0, 20));
    expect(readHistoryFile(path, 100)).toEqual({
      rings: new Map(),
      problems: [`The Eve history file ${path} is damaged; every door's Eve history starts fresh.`],
    });
  });

  it('starts only the damaged door fresh, with a line naming it', () => {
    const path = historyFilePath(storage(), 'main');
    writeHistoryFile(
      path,
      new Map([
        ['a', ringOf(1)],
        ['b', ringOf(2)],
      ]),
    );
    const json = JSON.parse(readFileSync(path, 'utf8')) as { doors: Record<string, string> };
    json.doors.b = Buffer.from('not a ring').toString('base64');
    writeFileSync(path, JSON.stringify(json));
    const read = readHistoryFile(path, 100);
    expect([...read.rings.keys()]).toEqual(['a']);
    expect(read.problems).toEqual([`The Eve history of door b in ${path} is damaged; that door's Eve history starts fresh.`]);
  });
});
