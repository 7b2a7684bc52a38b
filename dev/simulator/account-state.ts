// The live account: doors moving after toggles, programmed toggle outcomes, external changes, history recording.
import { randomUUID } from 'node:crypto';
import { API_CHANNEL } from './constants.js';
import type { HistoryLog } from './history.js';
import type {
  DoorChange,
  DoorLocation,
  ExternalChangeOptions,
  PendingTravelInfo,
  SimDevice,
  SimDoor,
  SimDoorState,
  SimUser,
} from './types.js';

interface PendingTravel {
  target: SimDoorState;
  dueAtMs: number;
  toggleId: string;
  timer: NodeJS.Timeout;
}

export interface AccountStateOptions {
  devices: SimDevice[];
  travelTimeMs: number;
  now: () => number;
  /** The token holder: who the service records as having toggled through the API. */
  accountUser: SimUser;
  history: HistoryLog;
  onChange: (change: DoorChange) => void;
}

export class UnknownIdError extends Error {}

export class AccountState {
  readonly devices: SimDevice[];
  travelTimeMs: number;
  private readonly pending = new Map<string, PendingTravel>();
  private readonly outcomes = new Map<string, number>();

  constructor(private readonly opts: AccountStateOptions) {
    this.devices = opts.devices;
    this.travelTimeMs = opts.travelTimeMs;
  }

  findDoor(doorId: string): DoorLocation | undefined {
    for (const device of this.devices) {
      const door = device.doors.find((candidate) => candidate.id === doorId);
      if (door) {
        return { device, door };
      }
    }
    return undefined;
  }

  findDevice(deviceId: string): SimDevice | undefined {
    return this.devices.find((device) => device.id === deviceId);
  }

  requireDoor(doorId: string): DoorLocation {
    const location = this.findDoor(doorId);
    if (!location) {
      throw new UnknownIdError(`unknown door ${doorId}`);
    }
    return location;
  }

  requireDevice(deviceId: string): SimDevice {
    const device = this.findDevice(deviceId);
    if (!device) {
      throw new UnknownIdError(`unknown device ${deviceId}`);
    }
    return device;
  }

  /** Handles an API toggle and returns the HTTP status to answer with. */
  toggle(doorId: string, target: SimDoorState): number {
    const location = this.findDoor(doorId);
    // An inactive controller is offline: the service cannot reach the hardware.
    if (!location?.device.active) {
      return 404;
    }
    const outcome = this.outcomes.get(doorId);
    // A programmed 2xx (202 Accepted, 204 No Content) is taken as 200 is: the door moves, only the answer differs.
    if (outcome !== undefined && !isSuccess(outcome)) {
      this.record(location, target, API_CHANNEL, this.opts.accountUser, false, new Date(this.opts.now()));
      return outcome;
    }
    // A new request supersedes whatever the door was doing.
    this.cancelTravel(doorId);
    if (location.door.state !== target) {
      this.startTravel(doorId, target);
    }
    return outcome ?? 200;
  }

  /** A change made outside HomeKit; cancels any travel in progress. Returns false when nothing changed. */
  setDoorState(doorId: string, state: SimDoorState, options: ExternalChangeOptions): boolean {
    const location = this.requireDoor(doorId);
    this.cancelTravel(doorId);
    if (location.door.state === state) {
      return false;
    }
    this.apply(location, state, options.channel, options.user, randomUUID(), options.silent, options.dateText);
    return true;
  }

  setToggleOutcome(doorId: string, status: number | null): void {
    this.requireDoor(doorId);
    if (status === null || status === 200) {
      this.outcomes.delete(doorId);
    } else {
      this.outcomes.set(doorId, status);
    }
  }

  addDoor(deviceId: string, door: SimDoor): void {
    if (this.findDoor(door.id)) {
      throw new Error(`door ${door.id} already exists`);
    }
    this.requireDevice(deviceId).doors.push(door);
  }

  removeDoor(doorId: string): void {
    const { device } = this.requireDoor(doorId);
    this.cancelTravel(doorId);
    this.outcomes.delete(doorId);
    device.doors = device.doors.filter((door) => door.id !== doorId);
  }

  toggleOutcomes(): Record<string, number> {
    return Object.fromEntries(this.outcomes);
  }

  pendingTravels(): PendingTravelInfo[] {
    return [...this.pending].map(([doorId, travel]) => ({ doorId, target: travel.target, dueAtMs: travel.dueAtMs }));
  }

  stop(): void {
    for (const doorId of [...this.pending.keys()]) {
      this.cancelTravel(doorId);
    }
  }

  private startTravel(doorId: string, target: SimDoorState): void {
    const toggleId = randomUUID();
    const timer = setTimeout(() => this.finishTravel(doorId), this.travelTimeMs);
    // A forgotten stop() in a test must not keep the process alive.
    timer.unref();
    this.pending.set(doorId, { target, dueAtMs: this.opts.now() + this.travelTimeMs, toggleId, timer });
  }

  private finishTravel(doorId: string): void {
    const travel = this.pending.get(doorId);
    this.pending.delete(doorId);
    const location = this.findDoor(doorId);
    if (!travel || !location) {
      return;
    }
    this.apply(location, travel.target, API_CHANNEL, this.opts.accountUser, travel.toggleId, false);
  }

  private cancelTravel(doorId: string): void {
    const travel = this.pending.get(doorId);
    if (travel) {
      clearTimeout(travel.timer);
      this.pending.delete(doorId);
    }
  }

  private apply(
    location: DoorLocation,
    state: SimDoorState,
    channel: string,
    user: SimUser,
    toggleId: string,
    silent: boolean,
    dateText?: string,
  ): void {
    const at = new Date(this.opts.now());
    location.door.state = state;
    location.door.lastToggled = at;
    location.device.lastContact = at;
    this.record(location, state, channel, user, true, at, dateText);
    this.opts.onChange({ ...location, state, channel, user, toggleId, at, silent });
  }

  private record(
    location: DoorLocation,
    state: SimDoorState,
    channel: string,
    user: SimUser,
    wasSuccess: boolean,
    at: Date,
    dateText?: string,
  ): void {
    this.opts.history.add({
      doorId: location.door.id,
      deviceId: location.device.id,
      doorName: location.door.name,
      doorState: state,
      channel,
      user,
      wasSuccess,
      at,
      ...(dateText === undefined ? {} : { dateText }),
    });
  }
}

function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}
