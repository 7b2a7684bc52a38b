// Which shown doors a webhook event is about: the door it names, by id or by controller and number, or a controller's.
import type { DoorContext } from '../door/model/context.js';
import type { DoorFacts } from '../door/door-accessory.js';
import { canonicalId } from '../util/canonical-id.js';
import type { WebhookEvent } from '../webhook/event.js';

/** What the finder reads of a shown door: its cached ids, and its number on its controller. */
export interface FindableDoor {
  readonly accessory: { readonly context: Pick<DoorContext, 'doorId' | 'deviceId'> };
  readonly facts: Pick<DoorFacts, 'entityNumber'>;
}

export class DoorFinder<D extends FindableDoor> {
  /** `doors`: the doors shown, by UUID, read at each call; `uuid`: the UUID a door id has. */
  constructor(
    private readonly doors: ReadonlyMap<string, D>,
    private readonly uuid: (doorId: string) => string,
  ) {}

  /** The door a webhook names: by its id, or by its controller and number for door-numbered events. */
  find(event: WebhookEvent): D | undefined {
    if (event.doorId !== undefined) {
      return this.byId(event.doorId);
    }
    const deviceId = event.deviceId === undefined ? undefined : canonicalId(event.deviceId);
    return [...this.doors.values()].find(
      (door) => canonicalId(door.accessory.context.deviceId) === deviceId && door.facts.entityNumber === event.doorNumber,
    );
  }

  /** The doors an enforcer event is about: the door it names, else (naming no door) every door of the controller it names. */
  alertDoors(event: WebhookEvent): D[] {
    if (event.doorId !== undefined) {
      const door = this.byId(event.doorId);
      return door ? [door] : [];
    }
    const deviceId = event.deviceId === undefined ? undefined : canonicalId(event.deviceId);
    return deviceId === undefined
      ? []
      : [...this.doors.values()].filter((door) => canonicalId(door.accessory.context.deviceId) === deviceId);
  }

  /**
   * The door an event names, compared as ids are (canonical): by the exact id first, else the one door whose id reads the
   * same (two doors whose ids read the same are both read-only, and an event naming them is matched to neither).
   */
  private byId(id: string): D | undefined {
    const exact = this.doors.get(this.uuid(id));
    if (exact) return exact;
    const key = canonicalId(id);
    const same = [...this.doors.values()].filter((door) => canonicalId(door.accessory.context.doorId) === key);
    return same.length === 1 ? same[0] : undefined;
  }
}
