// What reading the platform block found, each finding with the JSON path it concerns: the log prints the sentences, the
// settings page places each one by its path, and a block that cannot run lists every problem at once.
import type { Mention } from './mentions.js';
import type { HeldSecret } from './secret-values.js';
import { dotted } from './values.js';
import type { Spellings } from './values.js';
import type { Path } from './values.js';

/**
 * Read-only kept on doors because a protective setting that may concern them could not be read; it holds above each
 * door's own readOnly, since that setting may be the very one the unreadable entry was meant to override.
 */
export interface ReadOnlyLock {
  /** Every door. */
  all: boolean;
  /** Set: only these doors may be opened (an includeDoorIds with an element that cannot be read). */
  openableDoorIds?: string[];
  /** Set: only the doors of these controllers may be opened (likewise for includeDeviceIds). */
  openableDeviceIds?: string[];
  /** Numbers beyond 2^53 written as door ids with protection: a door whose id could be one of them is read-only. */
  doorNumbers?: number[];
  /** Likewise for controllers' ids: the doors of a controller whose id could be one of them are read-only. */
  deviceNumbers?: number[];
}

/**
 * Kinds kept as Home (or Matter) shows them now, because the setting that chooses them could not be read: a typo must
 * not turn every lock into a garage door (Home drops its automations) or take the doors off Matter.
 */
export interface KeptAsCached {
  /** The kind for all doors (showAs) could not be read: a door without a readable kind of its own keeps its cached one. */
  showAs: boolean;
  /** Doors whose own showAs could not be read. */
  showAsDoorIds: string[];
  /** The Matter mode could not be read: the doors stay on Matter as the cache has them (none, if none is). */
  matter: boolean;
  /** A `people` entry (or the list) could not be read: no cached person sensor is removed, a typo must not drop automations. */
  people?: boolean;
}

/** One problem of a value: where, and what is wrong ("is required"). */
export interface Issue {
  path: Path;
  message: string;
}

/** One sentence for the log and the page, with the path (dotted, "doors.2.readOnly") of the setting it is about. */
export interface Finding {
  path: string;
  sentence: string;
}

/** Collects, while the block is read, the sentences for the log and the plain problems for a refused block. */
export class Findings {
  /** Settings left out or replaced, and what holds instead. */
  readonly ignored: Finding[] = [];
  /** Near misses read as what they nearly are, and keys the plugin does not know. */
  readonly warnings: Finding[] = [];
  /** Doors kept read-only because something protective could not be read. */
  readonly lock: ReadOnlyLock = { all: false };
  readonly kept: KeptAsCached = { showAs: false, showAsDoorIds: [], matter: false, people: false };
  /** Values the plugin does not read, kept for the doors they name (src/config/protection.ts). */
  readonly mentions: Mention[] = [];
  /** How each id of a door entry or a filter was written, in its own case (src/config/protection.ts). */
  readonly spellings: Spellings = new Map();
  /** Keys read as notes (src/config/keys.ts, isNote), by dotted path: said once at debug. */
  readonly notes: string[] = [];
  /** Every mistake as "<path> <message>", for the one line of a config that cannot run at all. */
  readonly plain: string[] = [];

  constructor(
    /**
     * Which secret a name or an id holds (src/config/secret-values.ts): such a value is refused. The readers ask the
     * findings, which every one of them is given, so no reader is handed the secrets themselves.
     */
    readonly heldSecret: HeldSecret = () => undefined,
  ) {}

  /** A setting that could not be read: its issues, and the one sentence saying what holds instead. */
  add(issues: Issue[], sentence: string, path: Path = issues[0]?.path ?? []): void {
    this.plain.push(...issues.map((issue) => `${dotted(issue.path)} ${issue.message}`));
    this.ignored.push({ path: dotted(path), sentence });
  }

  /** A key or value read as what it nearly is, or one the plugin does not know. */
  warn(path: Path, sentence: string): void {
    this.warnings.push({ path: dotted(path), sentence });
  }

  /** Doors whose id could be `number` (written beyond 2^53) stay read-only. */
  lockNumber(kind: 'doorNumbers' | 'deviceNumbers', number: number): void {
    this.lock[kind] = [...new Set([...(this.lock[kind] ?? []), number])];
  }
}
