// The bridge's Eve history file in Homebridge's storage, apart from cachedAccessories: read once at start (a door whose
// part cannot be read starts fresh, said in one line), written whole to a temporary file and renamed over the old one,
// so a crash mid-write leaves the previous file.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import * as z from '../util/zod.js';
import { oneLine } from '../util/log-text.js';
import { EveRing } from './eve-ring.js';

/** The file: a version and each door's ring as base64 bytes (eve-ring.ts), by door id. */
const fileSchema = z.object({
  version: z.literal(1),
  doors: z.record(z.string(), z.string()),
});

/** The file of one bridge: its username (its MAC-like id) keeps two bridges of one storage apart. */
export function historyFilePath(storagePath: string, bridgeId: string): string {
  return join(storagePath, 'access-control', `eve-history-${bridgeId.replace(/[^0-9A-Za-z]/gu, '')}.json`);
}

/** What could be read: each door's ring, and the lines to say about what could not. */
export interface ReadHistories {
  rings: Map<string, EveRing>;
  problems: string[];
}

/** Reads the file; a missing file is no history yet, an unreadable one or an unreadable door is a line each. */
export function readHistoryFile(path: string, capacity: number): ReadHistories {
  const rings = new Map<string, EveRing>();
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    return {
      rings,
      problems: missing
        ? []
        : [`The Eve history file ${path} could not be read (${oneLine(String(error))}); every door's Eve history starts fresh.`],
    };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    return { rings, problems: [`The Eve history file ${path} is damaged; every door's Eve history starts fresh.`] };
  }
  const problems: string[] = [];
  for (const [doorId, base64] of Object.entries(parsed.data.doors)) {
    const ring = EveRing.fromBytes(Buffer.from(base64, 'base64'), capacity);
    if (ring) rings.set(doorId, ring);
    else problems.push(`The Eve history of door ${oneLine(doorId)} in ${path} is damaged; that door's Eve history starts fresh.`);
  }
  return { rings, problems };
}

/**
 * Writes every door's ring: a temporary file beside it first, then a rename, which replaces the old one whole. `rename`
 * is node's own; a test passes one that fails, as a process killed between the two steps would leave things.
 */
export function writeHistoryFile(
  path: string,
  rings: ReadonlyMap<string, EveRing>,
  rename: (from: string, to: string) => void = renameSync,
): void {
  const doors: Record<string, string> = {};
  for (const [doorId, ring] of rings) doors[doorId] = ring.toBytes().toString('base64');
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify({ version: 1, doors }));
  rename(temporary, path);
}
