// Builds a door_state_change webhook message (contract 6.2) in either field spelling the contract shows.
import { randomUUID } from 'node:crypto';
import { formatIsoUtcSeconds } from './dates.js';
import type { DoorChange, WebhookEvent, WebhookEventInput, WebhookSpelling } from './types.js';

export function buildDoorStateChangeEvent(input: WebhookEventInput, spelling: WebhookSpelling): WebhookEvent {
  const doorKey = spelling === 'example' ? 'doorID' : 'doorId';
  const deviceKey = spelling === 'example' ? 'deviceID' : 'deviceId';
  return {
    id: randomUUID(),
    eventType: 'door_state_change',
    toggleID: input.toggleId,
    [doorKey]: input.doorId,
    doorState: input.doorState,
    channel: input.channel,
    [deviceKey]: input.deviceId,
    eventOccurred: Math.floor(input.at.getTime() / 1000),
    eventOccurredUTC: formatIsoUtcSeconds(input.at),
    doorOwnerUserID: input.ownerUserId,
    userThatToggled: {
      firstName: input.user.firstName,
      lastName: input.user.lastName,
      emailAddress: input.user.emailAddress,
    },
  };
}

/** The webhook input describing a completed door change. */
export function eventInputFromChange(change: DoorChange): WebhookEventInput {
  return {
    toggleId: change.toggleId,
    doorId: change.door.id,
    doorState: change.state,
    channel: change.channel,
    deviceId: change.device.id,
    at: change.at,
    ownerUserId: change.device.ownerUserId,
    user: change.user,
  };
}

/**
 * Enforcer events (contract 6.1: an unauthorized user or vehicle access). The contract does not show their body, so
 * these samples are plausible guesses in the style of the door_state_change body: an unauthorized person at a door
 * (door and device named, the person in userThatToggled), and an unauthorized vehicle seen by a gate's plate reader
 * (only the device named, the vehicle in its own object).
 */
export const ENFORCER_SAMPLES = ['unauthorized-user', 'unauthorized-vehicle'] as const;
export type EnforcerSample = (typeof ENFORCER_SAMPLES)[number];

export interface EnforcerEventInput {
  /** Left out by the vehicle sample unless given: the plate reader belongs to the controller. */
  doorId?: string;
  deviceId: string;
  at: Date;
  ownerUserId: string;
}

export function buildEnforcerEvent(sample: EnforcerSample, input: EnforcerEventInput, spelling: WebhookSpelling): WebhookEvent {
  const doorKey = spelling === 'example' ? 'doorID' : 'doorId';
  const deviceKey = spelling === 'example' ? 'deviceID' : 'deviceId';
  const common = {
    id: randomUUID(),
    [deviceKey]: input.deviceId,
    ...(input.doorId === undefined ? {} : { [doorKey]: input.doorId }),
    eventOccurred: Math.floor(input.at.getTime() / 1000),
    eventOccurredUTC: formatIsoUtcSeconds(input.at),
    doorOwnerUserID: input.ownerUserId,
  };
  if (sample === 'unauthorized-user') {
    return {
      ...common,
      eventType: 'enforcer_unauthorized_user',
      channel: 'Keypad',
      userThatToggled: { firstName: 'Mallory', lastName: 'Doe', emailAddress: 'mallory@example.com' },
    };
  }
  return {
    ...common,
    eventType: 'enforcer_unauthorized_vehicle',
    channel: 'Plate Reader',
    vehicle: { licensePlate: 'KX-482-PD', make: 'Ford', model: 'Transit', color: 'white' },
  };
}
