// Measurement 10: webhook → HomeKit event for doors with their contact sensor on and without, two bridges side by side.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

import { HAP_CHARACTERISTIC, HAP_SERVICE } from '../harness/hap-types.js';
import { HOMEBRIDGE_2_PREFIX, HOMEBRIDGE_2_VERSION, READY_LINE, REPO_ROOT } from '../harness/homebridge-process.js';
import type { CharRef } from '../harness/homekit-controller.js';
import { LATENCY_EVENT_WAIT_MS, LATENCY_SPACING_MAX_MS, LATENCY_SPACING_MIN_MS } from './latency.js';
import { DoorEventClock, homeKitCurrent, opposite, randomBetween, sleepUntil, summarize } from './probes.js';
import type { Summary } from './probes.js';
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

export interface ContactVariant {
  label: string;
  contactSensor: boolean;
  /** Webhook POST sent → the door's CurrentDoorState event at the controller. */
  toDoorEvent: Summary;
  /** Webhook POST sent → the ContactSensorState event (contact sensor on only). */
  toContactEvent: Summary | undefined;
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
  door: number[];
  contact: number[];
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

async function prepare(rig: Rig, label: string, contactSensor: boolean): Promise<Side> {
  const contacts = contactSensor ? await contactRefs(rig) : new Map<string, CharRef>();
  // As the Home hub does: subscribed to every characteristic it shows, the contact sensor's too.
  const clock = await DoorEventClock.start(rig.controller, [...rig.doors.map((d) => d.current), ...contacts.values()]);
  return { label, contactSensor, rig, clock, contacts, door: [], contact: [], together: 0, non200: 0, missed: 0 };
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
  const sentAt = performance.now();
  const response = await sim.sendRawWebhook(event);
  const [doorArrival, contactArrival] = await Promise.all([
    expectedDoor.wait(LATENCY_EVENT_WAIT_MS),
    expectedContact?.wait(LATENCY_EVENT_WAIT_MS),
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
        nextAt = performance.now() + randomBetween(LATENCY_SPACING_MIN_MS, LATENCY_SPACING_MAX_MS);
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
