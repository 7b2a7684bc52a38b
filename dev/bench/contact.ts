// Measurement 10: webhook → HomeKit event for doors with their contact sensor on and without, two bridges side by side,
// and for the person sensor of the user the webhook names (on the contact sensor's bridge).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

import { HAP_CHARACTERISTIC, HAP_SERVICE } from '../harness/hap-types.js';
import { HOMEBRIDGE_2_PREFIX, HOMEBRIDGE_2_VERSION, READY_LINE, REPO_ROOT } from '../harness/homebridge-process.js';
import type { CharRef } from '../harness/homekit-controller.js';
import { LATENCY_EVENT_WAIT_MS } from './latency.js';
import { DoorEventClock, homeKitCurrent, opposite, randomBetween, sleepUntil, summarize } from './probes.js';
import type { Summary } from './probes.js';
import { SAMPLE_ACCOUNT_USER } from '../simulator/server.js';
import { startRig } from './rig.js';
import type { Cleanup, Rig } from './rig.js';

/** ContactSensorState values. */
const CONTACT_SENSOR_STATE = { DETECTED: 0, NOT_DETECTED: 1 } as const;
/** Same channel as section 1: a keypad at the gate. */
const CHANNEL = 'Keypad';
/** Measured changes per bridge; the two bridges take turns, one change at a time. */
export const CONTACT_CHANGES = 60;
/** Changes per bridge made first and not counted. */
export const CONTACT_WARMUP_CHANGES = 6;
/** Poll interval of both bridges: long enough that no poll happens while they are measured. */
export const CONTACT_RIG_POLL_INTERVAL_S = 300;
/** A door event this close after its contact event came in the same delivery (hap-controller hands them over one after another). */
export const SAME_DELIVERY_MS = 2;
/**
 * Time between two changes (ms, random within). The order alternates, so a bridge's two turns may come one after the
 * other: the minimum must exceed the person sensor's detection for it to end between two of its bridge's moves.
 */
export const CONTACT_SPACING_MIN_MS = 1_150;
export const CONTACT_SPACING_MAX_MS = 1_400;
/** `personSensorDuration` of the contact sensor's bridge (s): the shortest allowed, ended before the bridge's next change. */
export const CONTACT_PERSON_SENSOR_S = 1;
/** The person sensor on the contact sensor's bridge: the user the simulator's webhooks name (the account's user). */
const PERSON = { name: SAMPLE_ACCOUNT_USER.firstName, user: SAMPLE_ACCOUNT_USER.emailAddress };
/** MotionSensor's MotionDetected value when detecting. */
const MOTION_DETECTED = true;
/** The Model a person's accessory shows (src/people/person-sensor.ts). */
const PERSON_MODEL = 'Person Sensor';

export interface ContactVariant {
  label: string;
  contactSensor: boolean;
  /** Webhook POST sent → the door's CurrentDoorState event at the controller. */
  toDoorEvent: Summary;
  /** Webhook POST sent → the ContactSensorState event (contact sensor on only). */
  toContactEvent: Summary | undefined;
  /** Webhook POST sent → the person sensor's MotionDetected true event (contact sensor's bridge only). */
  toPersonEvent: Summary | undefined;
  /** Counted changes whose person event never came within LATENCY_EVENT_WAIT_MS (contact sensor's bridge only). */
  personMissed: number | undefined;
  /** Door events that came within SAME_DELIVERY_MS of their contact event (contact sensor on only). */
  sameDelivery: number | undefined;
  non200: number;
  /** Changes whose door event never came within LATENCY_EVENT_WAIT_MS. */
  missed: number;
}

export interface ContactResult {
  startedAt: Date;
  ms: number;
  /** e.g. `Homebridge 1.11.4, HAP-NodeJS 0.14.3`, from the bridge's ready line. */
  homebridge: string;
  changes: number;
  warmup: number;
  variants: ContactVariant[];
}

interface Side {
  label: string;
  contactSensor: boolean;
  rig: Rig;
  clock: DoorEventClock;
  /** The contact sensor's ContactSensorState per door id (contact sensor on only). */
  contacts: Map<string, CharRef>;
  /** The person sensor's MotionDetected (contact sensor's bridge only). */
  person: CharRef | undefined;
  door: number[];
  contact: number[];
  personEvents: number[];
  personMissed: number;
  together: number;
  non200: number;
  missed: number;
}

/** Each tracked door's ContactSensorState, found next to its garage door in the attribute database. */
async function contactRefs(rig: Rig): Promise<Map<string, CharRef>> {
  const accessories = await rig.controller.accessories();
  const refs = new Map<string, CharRef>();
  for (const door of rig.doors) {
    const accessory = accessories.find((a) => a.aid === door.current.aid);
    const service = accessory?.services.find((s) => s.type === HAP_SERVICE.ContactSensor);
    const iid = service?.characteristics.find((c) => c.type === HAP_CHARACTERISTIC.ContactSensorState)?.iid;
    if (iid === undefined) {
      throw new Error(`${door.name} has no contact sensor in HomeKit`);
    }
    refs.set(door.id, { aid: door.current.aid, iid });
  }
  return refs;
}

/** The person sensor's MotionDetected: the MotionSensor of the accessory whose Model says it is a person's. */
async function personRef(rig: Rig): Promise<CharRef> {
  const accessories = await rig.controller.accessories();
  for (const accessory of accessories) {
    const model = accessory.services
      .find((s) => s.type === HAP_SERVICE.AccessoryInformation)
      ?.characteristics.find((c) => c.type === HAP_CHARACTERISTIC.Model)?.value;
    const iid = accessory.services
      .find((s) => s.type === HAP_SERVICE.MotionSensor)
      ?.characteristics.find((c) => c.type === HAP_CHARACTERISTIC.MotionDetected)?.iid;
    if (model === PERSON_MODEL && iid !== undefined) {
      return { aid: accessory.aid, iid };
    }
  }
  throw new Error(`${PERSON.name}'s person sensor is not in HomeKit`);
}

async function prepare(rig: Rig, label: string, contactSensor: boolean): Promise<Side> {
  const contacts = contactSensor ? await contactRefs(rig) : new Map<string, CharRef>();
  const person = contactSensor ? await personRef(rig) : undefined;
  // As the Home hub does: subscribed to every characteristic it shows, the contact and person sensors' too.
  const refs = [...rig.doors.map((d) => d.current), ...contacts.values(), ...(person ? [person] : [])];
  const clock = await DoorEventClock.start(rig.controller, refs);
  return {
    label,
    contactSensor,
    rig,
    clock,
    contacts,
    person,
    door: [],
    contact: [],
    personEvents: [],
    personMissed: 0,
    together: 0,
    non200: 0,
    missed: 0,
  };
}

/** One change on one bridge: a door moved at the keypad, its webhook posted, its events timed. */
async function change(side: Side, index: number, counted: boolean): Promise<void> {
  const { sim, doors } = side.rig;
  const door = doors[index % doors.length];
  const simDoor = door && sim.getDoor(door.id);
  if (!door || !simDoor) {
    throw new Error('the sample account lost a door');
  }
  const state = opposite(simDoor.state);
  sim.setDoorState(door.id, state, { channel: CHANNEL, silent: true });
  const event = sim.buildWebhookEvent(door.id, { doorState: state, eventOccurred: Math.floor(Date.now() / 1000), channel: CHANNEL });
  const expectedDoor = side.clock.expect(door.current, homeKitCurrent(state));
  const contactRef = side.contacts.get(door.id);
  const contactValue = state === 'CLOSED' ? CONTACT_SENSOR_STATE.DETECTED : CONTACT_SENSOR_STATE.NOT_DETECTED;
  const expectedContact = contactRef && side.clock.expect(contactRef, contactValue);
  const expectedPerson = side.person && side.clock.expect(side.person, MOTION_DETECTED);
  const sentAt = performance.now();
  const response = await sim.sendRawWebhook(event);
  const [doorArrival, contactArrival, personArrival] = await Promise.all([
    expectedDoor.wait(LATENCY_EVENT_WAIT_MS),
    expectedContact?.wait(LATENCY_EVENT_WAIT_MS),
    expectedPerson?.wait(LATENCY_EVENT_WAIT_MS),
  ]);
  if (!counted) {
    return;
  }
  if (response.status !== 200) {
    side.non200 += 1;
  }
  if (doorArrival === undefined) {
    side.missed += 1;
    return;
  }
  side.door.push(doorArrival.perfMs - sentAt);
  if (personArrival !== undefined) {
    side.personEvents.push(personArrival.perfMs - sentAt);
  } else if (expectedPerson !== undefined) {
    side.personMissed += 1;
  }
  if (contactArrival !== undefined) {
    side.contact.push(contactArrival.perfMs - sentAt);
    if (Math.abs(doorArrival.perfMs - contactArrival.perfMs) <= SAME_DELIVERY_MS) {
      side.together += 1;
    }
  }
}

function homebridgeOf(rig: Rig): string {
  const ready = READY_LINE.exec(rig.hb.log());
  return `Homebridge ${ready?.[1] ?? rig.hb.version}, HAP-NodeJS ${ready?.[2] ?? 'unknown'}`;
}

/**
 * Two bridges started the same way at the same time, the sample account each, one with `contactSensor: true`. The
 * bridges take turns (one change at a time on the machine, the order alternating), so both see the same load.
 */
export async function measureContactLatency(cleanup: Cleanup): Promise<ContactResult> {
  const startedAt = new Date();
  const start = performance.now();
  const starts = [false, true].map((contactSensor) =>
    startRig(cleanup, {
      pollIntervalS: CONTACT_RIG_POLL_INTERVAL_S,
      webhook: true,
      contactSensor,
      bridgeName: contactSensor ? 'Bench Contact' : 'Bench Plain',
      // Only beside the contact sensor: MotionDetected is sent at once too, so on the plain bridge it would flush the door's held event.
      ...(contactSensor ? { people: { entries: [PERSON], durationS: CONTACT_PERSON_SENSOR_S } } : {}),
    }),
  );
  await Promise.allSettled(starts);
  const [plainRig, contactRig] = await Promise.all(starts);
  if (!plainRig || !contactRig) {
    throw new Error('a contact bench rig did not start');
  }
  try {
    const sides = [await prepare(plainRig, 'contact sensor off', false), await prepare(contactRig, 'contact sensor on', true)];
    let nextAt = performance.now();
    for (let i = 0; i < CONTACT_WARMUP_CHANGES + CONTACT_CHANGES; i += 1) {
      const order = i % 2 === 0 ? sides : [...sides].reverse();
      for (const side of order) {
        await sleepUntil(nextAt);
        nextAt = performance.now() + randomBetween(CONTACT_SPACING_MIN_MS, CONTACT_SPACING_MAX_MS);
        await change(side, i, i >= CONTACT_WARMUP_CHANGES);
      }
    }
    return {
      startedAt,
      ms: performance.now() - start,
      homebridge: homebridgeOf(contactRig),
      changes: CONTACT_CHANGES,
      warmup: CONTACT_WARMUP_CHANGES,
      variants: sides.map((s) => ({
        label: s.label,
        contactSensor: s.contactSensor,
        toDoorEvent: summarize(s.door),
        toContactEvent: s.contactSensor ? summarize(s.contact) : undefined,
        toPersonEvent: s.person ? summarize(s.personEvents) : undefined,
        personMissed: s.person ? s.personMissed : undefined,
        sameDelivery: s.contactSensor ? s.together : undefined,
        non200: s.non200,
        missed: s.missed,
      })),
    };
  } finally {
    await Promise.all([plainRig.close(), contactRig.close()]);
  }
}

/** The e2e matrix's Homebridge 2.x install, run by the Node its engines ask for. */
const HOMEBRIDGE_2_NODE = 'node@22';
/** The child bench's whole run: two bridges, 132 changes, ~90 s; a cold `npx -y node@22` adds a download. */
const CHILD_TIMEOUT_MS = 6 * 60_000;
/** The child prints its result on one line starting with this. */
export const CONTACT_JSON_MARK = 'bench-contact-result ';

export interface ContactRuns {
  results: ContactResult[];
  /** Why a Homebridge was not measured (e.g. the 2.x prefix is not installed). */
  notes: string[];
}

/** The same measurement in a child bench under Node 22 with the e2e matrix's Homebridge 2.x (HB_PREFIX). */
async function measureOnHomebridge2(): Promise<ContactResult> {
  const script = fileURLToPath(new URL('./bench.js', import.meta.url));
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['-y', HOMEBRIDGE_2_NODE, script, 'contact-json'], {
      cwd: REPO_ROOT,
      env: { ...process.env, HB_PREFIX: HOMEBRIDGE_2_PREFIX },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    const timer = setTimeout(() => child.kill('SIGTERM'), CHILD_TIMEOUT_MS);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      const line = out.split('\n').find((l) => l.startsWith(CONTACT_JSON_MARK));
      if (code !== 0 || line === undefined) {
        reject(new Error(`the Homebridge 2.x contact bench exited with ${String(code)} and no result`));
        return;
      }
      const parsed = JSON.parse(line.slice(CONTACT_JSON_MARK.length)) as ContactResult & { startedAt: string };
      resolve({ ...parsed, startedAt: new Date(parsed.startedAt) });
    });
  });
}

/** This Homebridge (the repo's 1.11 unless HB_PREFIX says otherwise), then Homebridge 2.x if the e2e matrix installed it. */
export async function measureContactAll(cleanup: Cleanup, progress: (text: string) => void): Promise<ContactRuns> {
  const notes: string[] = [];
  const results = [await measureContactLatency(cleanup)];
  if (!existsSync(path.join(HOMEBRIDGE_2_PREFIX, 'node_modules', 'homebridge'))) {
    notes.push(
      `Homebridge ${HOMEBRIDGE_2_VERSION} not measured: ${path.relative(REPO_ROOT, HOMEBRIDGE_2_PREFIX)} is not installed (the e2e matrix installs it).`,
    );
    return { results, notes };
  }
  progress(`contact sensor on/off, Homebridge ${HOMEBRIDGE_2_VERSION} (${HOMEBRIDGE_2_NODE})…`);
  try {
    results.push(await measureOnHomebridge2());
  } catch (error) {
    notes.push(`Homebridge ${HOMEBRIDGE_2_VERSION} not measured: ${error instanceof Error ? error.message : String(error)}.`);
  }
  return { results, notes };
}
