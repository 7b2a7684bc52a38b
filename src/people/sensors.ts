// The person sensors in HomeKit: one accessory per `people` entry, tied to its user, and the moves that make them detect.
import type { API, Logging, PlatformAccessory } from 'homebridge';

import { homeKitName } from '../util/homekit-name.js';
import type { DoorState } from '../client/types.js';
import {
  PERSON_MOVE_MAX_AGE_MS,
  PERSON_MOVE_MAX_AHEAD_MS,
  PERSON_MOVES_REMEMBERED_MAX,
  PERSON_TOLD_MOVES_PER_DOOR,
  PLATFORM_NAME,
  PLUGIN_NAME,
} from '../settings.js';
import type { Clock } from '../util/clock.js';
import { oneLine } from '../util/log-text.js';
import { RecentIds } from '../util/recent-ids.js';
import type { ToldMove } from './attribution.js';
import { PeopleDirectory, detectsFor, userKey } from './match.js';
import type { PersonMove, PersonRule, ServiceUser } from './match.js';
import { PersonSensor, isPersonContext } from './person-sensor.js';
import type { PersonContext } from './person-sensor.js';

/** One `people` entry as the config holds it. */
export interface PersonEntry extends PersonRule {
  name: string;
}

export interface PeopleDeps {
  api: API;
  log: Logging;
  /** Undefined when the config cannot be read: cached people then stay as they are (automations survive a typo). */
  entries: readonly PersonEntry[] | undefined;
  /** An entry of `people` could not be read: a cached person no entry names stays (it may be that entry's). */
  keepUnlisted?: boolean;
  durationMs: number;
  clock: Clock;
}

/** The name a person's accessory shows: the entry's name, cleaned as door names are. */
const FALLBACK_NAME = 'Person';

export class People {
  private readonly cached = new Map<string, PlatformAccessory<PersonContext>>();
  /** The sensors, in the order of the entries. */
  private sensors: PersonSensor[] = [];
  /** Cached people kept while an entry cannot be read; they never detect. */
  private kept: PersonSensor[] = [];
  /** toggleIDs of moves told, per door: the same toggle told as `door1_open` and as `door_state_change` detects once. */
  private readonly toggles = new RecentIds(PERSON_MOVES_REMEMBERED_MAX);
  /** Per door, the state of its last move told (or first seen): a move there again is the same move until it leaves. */
  private readonly settled = new Map<string, DoorState>();
  /** Doors a sync has seen since the start. */
  private readonly looked = new Set<string>();
  private readonly told = new Map<string, ToldMove[]>();
  private readonly directory = new PeopleDirectory();

  constructor(private readonly deps: PeopleDeps) {}

  /** Takes a cached accessory when it holds a person; false when it is not one of ours to take. */
  fromCache(accessory: PlatformAccessory): boolean {
    if (!isPersonContext(accessory.context)) return false;
    this.cached.set(accessory.UUID, accessory as PlatformAccessory<PersonContext>);
    return true;
  }

  /**
   * How many accessories start() holds: one per entry (each user once), and the cached people it keeps while an entry
   * cannot be read. The bridge's room is planned with it before anything is added.
   */
  planned(): number {
    const { api, entries } = this.deps;
    if (entries === undefined) return this.cached.size;
    const listed = new Set(entries.map((entry) => api.hap.uuid.generate(`${PLUGIN_NAME}:person:${userKey(entry.user)}`)));
    const kept = this.deps.keepUnlisted === true ? [...this.cached.keys()].filter((uuid) => !listed.has(uuid)).length : 0;
    return listed.size + kept;
  }

  /** At launch: a sensor per entry (its cached accessory taken over, renamed as the entry says), and removed people leave. */
  start(): void {
    const { api, log, entries } = this.deps;
    if (entries === undefined) return;
    const renamed: PlatformAccessory[] = [];
    const added: PlatformAccessory[] = [];
    this.sensors = entries.map((entry) => {
      const key = userKey(entry.user);
      const uuid = api.hap.uuid.generate(`${PLUGIN_NAME}:person:${key}`);
      const name = homeKitName(entry.name, FALLBACK_NAME);
      const cached = this.cached.get(uuid);
      this.cached.delete(uuid);
      if (cached) {
        const sensor = new PersonSensor(api, cached, this.deps.durationMs, this.deps.clock);
        if (sensor.rename(name)) renamed.push(cached);
        return sensor;
      }
      const accessory = new api.platformAccessory<PersonContext>(name, uuid);
      accessory.context = { personUser: key, name };
      added.push(accessory);
      log.info(`Added ${name} to HomeKit (a person sensor).`);
      return new PersonSensor(api, accessory, this.deps.durationMs, this.deps.clock);
    });
    if (added.length > 0) api.registerPlatformAccessories(PLUGIN_NAME, PLATFORM_NAME, added);
    if (renamed.length > 0) api.updatePlatformAccessories(renamed);
    const gone = [...this.cached.values()];
    this.cached.clear();
    if (this.deps.keepUnlisted === true) {
      // Kept with a sensor that never detects: it answers from memory, and a detection cached at shutdown ends.
      this.kept = gone.map((accessory) => new PersonSensor(api, accessory, this.deps.durationMs, this.deps.clock));
      for (const accessory of gone) {
        log.warn(
          `Kept ${accessory.context.name} in HomeKit as it is: an entry of the people settings cannot be read, and it may be this person's.`,
        );
      }
      return;
    }
    for (const accessory of gone) {
      log.info(`Removed ${accessory.context.name} from HomeKit: the person is no longer in the people settings.`);
    }
    if (gone.length > 0) api.unregisterPlatformAccessories(PLUGIN_NAME, PLATFORM_NAME, gone);
  }

  /**
   * A sync saw `doorId` in `state`. The first look after a start settles the door there (a move made before it is old
   * news, or was detected before the restart); seen in the state other than its last move's, the door may move there again.
   */
  seen(doorId: string, state: DoorState): void {
    const settled = this.settled.get(doorId);
    if (!this.looked.has(doorId)) {
      this.looked.add(doorId);
      this.settled.set(doorId, state);
    } else if (settled !== undefined && settled !== state) {
      this.settled.delete(doorId);
    }
  }

  /** The moves of `doorId` webhooks told of lately: the history entries they name are not another move. */
  toldMoves(doorId: string): readonly ToldMove[] {
    return this.told.get(doorId) ?? [];
  }

  /** Names paired with e-mails, from the history: a user named one way alone can then be told listed or not. */
  learn(user: ServiceUser | undefined): void {
    this.directory.learn(user);
  }

  /**
   * A shown door moved successfully: the sensors of the people it names detect, once per move. A move is told again by
   * a webhook with the same toggleID, or of the same door and state while no sync has seen the door in the other state
   * since (the other webhook type of one toggle, the history after a webhook, a webhook after the history, a restart).
   * A webhook's move dated more than PERSON_MOVE_MAX_AGE_MS ago is old news, and one dated more than
   * PERSON_MOVE_MAX_AHEAD_MS ahead cannot be judged: neither detects.
   */
  moved(move: PersonMove, doorName: string): void {
    const entries = this.deps.entries;
    if (entries === undefined || this.sensors.length === 0) return;
    const ageMs = this.deps.clock.now() - move.atMs;
    if (ageMs > PERSON_MOVE_MAX_AGE_MS || -ageMs > PERSON_MOVE_MAX_AHEAD_MS) return;
    if (move.toggleId !== undefined && !this.toggles.add(`${move.doorId}\u0000${move.toggleId}`)) return;
    if (move.byWebhook === true) {
      this.learn(move.user);
      const told = [...this.toldMoves(move.doorId), { state: move.state, atMs: move.atMs, user: move.user }];
      this.told.set(move.doorId, told.slice(-PERSON_TOLD_MOVES_PER_DOOR));
    }
    if (this.settled.get(move.doorId) === move.state) return;
    this.settled.set(move.doorId, move.state);
    const sensors = detectsFor(entries, move, this.directory).flatMap((index) => this.sensors[index] ?? []);
    for (const sensor of sensors) {
      sensor.trigger();
      this.deps.log.debug(
        `${sensor.name} detects: ${doorName} was ${move.state === 'OPEN' ? 'opened' : 'closed'} by ${oneLine(whoOf(move))}.`,
      );
    }
  }

  /** The account could (not) be read: every person's sensor answers as the doors do (No Response while it cannot). */
  setAccountReadable(readable: boolean): void {
    for (const sensor of this.all()) sensor.setAvailable(readable);
  }

  /** Every person's sensor, those kept as cached included (the Matter side shows each): empty before start(). */
  all(): readonly PersonSensor[] {
    return [...this.sensors, ...this.kept];
  }

  /** Stops every sensor's timer (at Homebridge's shutdown). */
  dispose(): void {
    for (const sensor of [...this.sensors, ...this.kept]) sensor.dispose();
  }
}

function whoOf(move: PersonMove): string {
  const user = move.user;
  const name = [user?.firstName, user?.lastName].filter(Boolean).join(' ') || user?.name || '';
  return name || 'someone';
}
