// Builds a door_state_change webhook message (contract 6.2) in either field spelling the contract shows.
import { randomUUID } from 'node:crypto';
import type { SimDoorState, SimUser } from './account.js';
import type { DoorChange } from './account-state.js';
import { formatIsoUtcSeconds } from './dates.js';

/** 'example' = doorID/deviceID as in the example body; 'table' = doorId/deviceId as in the field table. */
export type WebhookSpelling = 'example' | 'table';

export type WebhookEvent = Record<string, unknown>;

export interface WebhookEventInput {
  toggleId: string;
  doorId: string;
  doorState: SimDoorState;
  channel: string;
  deviceId: string;
  at: Date;
  ownerUserId: string;
  user: SimUser;
}

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
