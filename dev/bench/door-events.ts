// Timestamps the HomeKit events a controller receives for doors' CurrentDoorState, and waits for an expected one.
import { performance } from 'node:perf_hooks';

import type { CharacteristicEvent, CharRef, HomeKitController } from '../harness/homekit-controller.js';

export interface EventArrival {
  /** performance.now() when the controller received the event. */
  perfMs: number;
  /** Date.now() at the same moment (to compare with the simulator's request log). */
  epochMs: number;
}

interface Waiter {
  ref: CharRef;
  value: unknown;
  resolve(arrival: EventArrival): void;
}

export interface ExpectedEvent {
  /** Resolves with the arrival, or undefined when none came within `timeoutMs`. */
  wait(timeoutMs: number): Promise<EventArrival | undefined>;
}

export class DoorEventClock {
  private readonly waiters = new Set<Waiter>();

  private constructor() {}

  /** Subscribes the controller to `refs`; events are timestamped the moment hap-controller hands them over. */
  static async start(controller: HomeKitController, refs: CharRef[]): Promise<DoorEventClock> {
    const clock = new DoorEventClock();
    await controller.subscribe(refs, (event) => clock.onEvent(event));
    return clock;
  }

  /** Call before causing the change, so an early event cannot be missed. */
  expect(ref: CharRef, value: unknown): ExpectedEvent {
    let arrived: EventArrival | undefined;
    let wake: ((arrival: EventArrival | undefined) => void) | undefined;
    const waiter: Waiter = {
      ref,
      value,
      resolve: (arrival) => {
        this.waiters.delete(waiter);
        arrived = arrival;
        wake?.(arrival);
      },
    };
    this.waiters.add(waiter);
    return {
      wait: (timeoutMs) =>
        arrived !== undefined
          ? Promise.resolve(arrived)
          : new Promise((resolve) => {
              const timer = setTimeout(() => {
                this.waiters.delete(waiter);
                resolve(undefined);
              }, timeoutMs);
              wake = (arrival) => {
                clearTimeout(timer);
                resolve(arrival);
              };
            }),
    };
  }

  private onEvent(event: CharacteristicEvent): void {
    const arrival: EventArrival = { perfMs: performance.now(), epochMs: Date.now() };
    for (const waiter of [...this.waiters]) {
      if (waiter.ref.aid === event.aid && waiter.ref.iid === event.iid && waiter.value === event.value) {
        waiter.resolve(arrival);
      }
    }
  }
}
