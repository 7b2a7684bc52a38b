// Names a `people[].doors` id that counts for nobody: a door the account does not have, or one HomeKit does not show.
import { IdIndex } from '../config/could-mean.js';
import { quotableId } from '../config/values.js';
import { canonicalId } from '../util/canonical-id.js';
import { oneLine } from '../util/log-text.js';

/** A door of the account as the check needs it. */
export interface AccountDoor {
  id: string;
  /** The service's name for it (its text: cleaned here). */
  name: string;
  /** Why the settings keep it out of HomeKit, if they do. */
  keptOutBecause: string | undefined;
}

/** One `people` entry as the check needs it. */
export interface PersonDoors {
  name: string;
  doors?: readonly string[] | undefined;
}

/**
 * Says each `people[].doors` id that counts for nobody, once per entry and id for as long as Homebridge runs (a sync
 * every few seconds must not repeat it). Only a complete account is to be checked: a door the service could not read
 * may be the one named.
 */
export class PeopleDoorCheck {
  private readonly said = new Set<string>();

  constructor(
    private readonly people: readonly PersonDoors[],
    private readonly warn: (sentence: string) => void,
  ) {}

  /** After a sync that read the whole account: `shown` are the ids of the doors HomeKit shows from this bridge. */
  check(doors: readonly AccountDoor[], shown: ReadonlySet<string>): void {
    if (!this.people.some((person) => person.doors !== undefined)) return;
    // The entries' ids are in canonicalId form (the parser's): the account's are compared in it.
    const byId = new Map(doors.map((door) => [canonicalId(door.id), door]));
    const shownKeys = new Set([...shown].map(canonicalId));
    const index = new IdIndex(doors.map((door) => door.id));
    const hint = (id: string): string => {
      const near = index.closest(id);
      const shownId = near === undefined ? undefined : quotableId(byId.get(near)?.id ?? near);
      return shownId === undefined ? '' : ` (the closest is ${shownId})`;
    };
    this.people.forEach((person, index) => {
      for (const id of person.doors ?? []) {
        const key = `${index}\u0000${id}`;
        if (shownKeys.has(id) || this.said.has(key)) continue;
        this.said.add(key);
        const door = byId.get(id);
        const why =
          door === undefined
            ? `no door of the account has this id${hint(id)}`
            : `HomeKit does not show that door (${oneLine(door.name)}) from this bridge${door.keptOutBecause === undefined ? '' : `: ${door.keptOutBecause}`}`;
        this.warn(
          `The people entry ${JSON.stringify(oneLine(person.name))} lists the door ${JSON.stringify(oneLine(id))}, which counts for nobody: ${why}.`,
        );
      }
    });
  }
}
