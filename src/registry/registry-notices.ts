// What the registry says of the doors it shows: those the bridge's cap leaves out, duplicates, names Siri cannot tell apart.
import type { Logging } from 'homebridge';

import { fallbackDoorName } from '../client/fallback-name.js';
import type { DoorOfDevice, DuplicateDoor } from '../door/duplicates.js';
import { soundAlikePairs } from '../door/spoken-names.js';
import type { NamedDoor } from '../door/spoken-names.js';
import { MAX_ACCESSORIES_PER_BRIDGE } from '../settings.js';
import { homeKitName } from '../util/homekit-name.js';
import { listForLog, oneLine } from '../util/log-text.js';
import { NoticeOnce, NoticeOnceEach } from '../util/notice-once.js';

export class RegistryNotices {
  /** The doors the cap leaves out: said when they change, and when all fit again. */
  private readonly overLimit = new NoticeOnce();
  /** The duplicate door ids last reported, said once for each set of them. */
  private readonly duplicates = new NoticeOnce();
  /** Pairs of doors Siri cannot tell apart, each said once while it lasts. */
  private readonly soundAlike = new NoticeOnceEach();

  /** `others`: the plugin's accessories on the bridge that are not doors (person sensors), as of now. */
  constructor(
    private readonly log: Logging,
    private readonly others: () => number,
  ) {}

  /** Why a door in Home leaves for the cap (never "the account no longer has it": it still has). */
  noRoom(others = this.others()): string {
    const people = others === 0 ? '' : `, ${others} of them person sensors`;
    return `one bridge holds at most ${MAX_ACCESSORIES_PER_BRIDGE} accessories${people}, and the doors already in Home, then the first by door id, take the room (see docs/limits.md)`;
  }

  /** Names the doors the cap leaves out and the settings that bring them in: said when they change, and when all fit. */
  reportLeftOut(leftOut: DoorOfDevice[], overLimit: number | undefined): void {
    if (overLimit === undefined || leftOut.length === 0) {
      this.overLimit.ended(() => this.log.info('Every door the settings let in fits on the bridge again.'));
      return;
    }
    const named = leftOut.map(({ door }) => `${homeKitName(door.name, fallbackDoorName(door.id))} (door ${door.id})`);
    this.overLimit.holds(
      () =>
        this.log.warn(
          `The account has ${overLimit} doors for this bridge, but one bridge holds at most ${MAX_ACCESSORIES_PER_BRIDGE} accessories${this.others() === 0 ? '' : ` and ${this.others()} of them are person sensors`}; left out: ${listForLog(named)}. To show them, add the platform again on its own child bridge with includeDeviceIds (or includeDoorIds) naming their controllers, and excludeDeviceIds on this one (see docs/limits.md).`,
        ),
      leftOut.map(({ door }) => door.id).join('\u0000'),
    );
  }

  /** Names door ids listed under more than one controller, once for each set of them. */
  reportDuplicates(duplicates: DuplicateDoor[]): void {
    if (duplicates.length === 0) {
      this.duplicates.ended();
      return;
    }
    this.duplicates.holds(() => {
      const named = duplicates.map(({ doorId, deviceIds }) => `door ${doorId} (controllers ${deviceIds.join(', ')})`);
      this.log.warn(
        `The account lists the same door under more than one controller; each is shown once, as the door of the first controller by id: ${listForLog(named)}.`,
      );
    }, JSON.stringify(duplicates));
  }

  /** One warning per pair of shown doors Siri cannot tell apart, when the pair first appears (at start, or after a change). */
  warnSoundAlike(doors: readonly NamedDoor[]): void {
    this.soundAlike.update(
      soundAlikePairs(doors),
      (pair) => JSON.stringify(pair),
      ([first, second]) =>
        this.log.warn(
          `Siri cannot tell ${first.name} (door ${oneLine(first.id)}) from ${second.name} (door ${oneLine(second.id)}) apart: their names differ only in case, spaces or punctuation. Give one of them its own "Name in Home" in the plugin settings.`,
        ),
    );
  }
}
