// A hostile or broken service, through the whole platform on a simulated clock: every log line stays one clean, bounded
// line; a door listed under two controllers is shown once and stays put; an unreadable part is reported once per problem.
import { afterEach, describe, expect, it, vi } from 'vitest';

import { freePort } from '../../dev/harness/homebridge-process.js';
import { makeDevice, makeDoor, SAMPLE_ACCOUNT_USER } from '../../dev/simulator/server.js';
import type { SimDevice, AccessControlSimulator } from '../../dev/simulator/server.js';
import { ManualClock } from '../support/homebridge-double.js';
import { bootSynced, shutDownAfterEach } from '../support/platform-rig.js';
import { simulatorPerTest } from '../support/simulator.js';

const TOKEN = 'hostile-token-2b7e';
const API_KEY = 'cd'.repeat(48);
const POLLS = 4;
/** Control characters (C0, DEL, C1) and the Unicode line and paragraph separators: anything that could break a log line. */
// eslint-disable-next-line no-control-regex
const LINE_BREAKING = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
/** A line holds a few pieces of outside text, each cut to a few hundred characters: 10 KB values must not get through. */
const MAX_LINE_CHARS = 2_000;

/** Newline (a forged line), escape codes (colours, cursor moves) and 10 KB, all in one value. */
function hostile(label: string): string {
  return `${label}\n[11/22/2026, 9:00:00 AM] [Access Control] Forged line\r\u001b[2J\u001b[31mred\u2028${'x'.repeat(10 * 1024)}`;
}

let sim: AccessControlSimulator | undefined;

afterEach(() => {
  vi.restoreAllMocks();
});
const startSimulator = simulatorPerTest();
const running = shutDownAfterEach();

async function boot(devices: SimDevice[], extra: Record<string, unknown> = {}) {
  const clock = new ManualClock();
  // The service's clock is the plugin's, so the history a sync asks for covers the change it found.
  sim = await startSimulator({ accessToken: TOKEN, devices, now: () => clock.now() });
  const { api, log, poll } = await bootSynced(sim, { accessToken: TOKEN, pollInterval: 15, ...extra }, { clock, running });
  const texts = (level?: string): string[] => log.lines.filter((l) => level === undefined || l.level === level).map((l) => l.text);
  return { sim, api, log, poll, texts };
}

describe('outside text in the log', () => {
  it('every line from sync, history and webhook paths is one line without control characters, and bounded', async () => {
    // HAP-NodeJS reports a value it refuses (a serial number past 64 characters, say) on the console, quoting it;
    // Homebridge puts that in its log too.
    const consoleLines: string[] = [];
    for (const method of ['log', 'info', 'warn', 'error'] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void consoleLines.push(args.map(String).join(' ')));
    }
    const webhookPort = await freePort();
    const historyDoor = makeDoor({ name: 'Side Gate', state: 'CLOSED' });
    const devices = [
      makeDevice({
        id: hostile('controller'),
        doors: [makeDoor({ id: hostile('door'), name: hostile('name'), state: 'CLOSED' }), historyDoor],
      }),
    ];
    const rig = await boot(devices, { webhook: { port: webhookPort, host: '127.0.0.1', apiKey: API_KEY } });
    expect(rig.api.registered.size).toBe(2);
    // The listener waits for the first sync when Homebridge's config cannot be read (as in this double).
    await vi.waitFor(() => expect(rig.texts().some((t) => t.startsWith('Webhook listener on'))).toBe(true));

    // History: who moved the door, with a hostile name and channel.
    rig.sim.setDoorState(historyDoor.id, 'OPEN', {
      silent: true,
      channel: hostile('channel'),
      user: { ...SAMPLE_ACCOUNT_USER, firstName: hostile('first'), lastName: hostile('last') },
    });
    await rig.poll();
    await vi.waitFor(() => expect(rig.texts().some((t) => t.startsWith('Side Gate was opened by'))).toBe(true));

    // Webhooks: a hostile event id sent twice, hostile names, and an unknown door.
    rig.sim.setWebhook({ url: `http://127.0.0.1:${webhookPort}/`, apiKey: API_KEY });
    const event = {
      ...rig.sim.buildWebhookEvent(historyDoor.id, { doorState: 'CLOSED', channel: hostile('hook-channel') }),
      id: hostile('event'),
      userThatToggled: { firstName: hostile('hook-first'), lastName: hostile('hook-last') },
    };
    expect((await rig.sim.sendRawWebhook(event)).status).toBe(200);
    expect((await rig.sim.sendRawWebhook(event)).status).toBe(200);
    expect((await rig.sim.sendRawWebhook({ ...event, id: 'other', doorID: hostile('nowhere') })).status).toBe(200);
    await vi.waitFor(() => expect(rig.texts('debug').some((t) => t.includes('came again'))).toBe(true));
    // An enforcer event (an unauthorized user and vehicle) with hostile names, plate and door id.
    const enforcer = {
      id: 'enforcer',
      // Four values of 10 KB each: the listener takes at most 64 KiB.
      eventType: 'unauthorized_access',
      doorID: hostile('nowhere-2'),
      userThatToggled: { firstName: hostile('intruder-first'), emailAddress: 'intruder\n[Access Control] Forged line' },
      vehicle: { licensePlate: hostile('plate'), make: hostile('make'), color: 'red\r\u001b[2J' },
    };
    expect((await rig.sim.sendRawWebhook(enforcer)).status).toBe(200);
    await vi.waitFor(() => expect(rig.texts('debug').some((t) => t.startsWith('No access alert shows this event'))).toBe(true));

    // An unknown state and an unreadable part, both carrying hostile text.
    rig.sim.setFault('sync', {
      kind: 'status',
      status: 200,
      body: JSON.stringify({
        devices: [
          { id: hostile('controller'), doors: [{ id: hostile('door'), state: hostile('state') }, { name: hostile('no id') }] },
          { doors: 'x' },
        ],
      }),
    });
    await rig.poll();

    const lines = [...rig.texts(), ...consoleLines];
    expect(lines.some((t) => t.startsWith('Added '))).toBe(true);
    expect(lines.some((t) => t.includes('the service reported an unknown state'))).toBe(true);
    expect(lines.some((t) => t.startsWith('Part of the account could not be read'))).toBe(true);
    const broken = lines.filter((t) => LINE_BREAKING.test(t) || t.length > MAX_LINE_CHARS).map((t) => t.slice(0, 120));
    expect(broken).toEqual([]);
    expect(lines.join('\n')).not.toContain('Forged line\n');
  });
});

describe('the same door id under two controllers', () => {
  const DOOR_ID = '3f1c6a52-0000-4000-8000-00000000d00d';

  it('is shown once, as the copy under the first controller by id, stays put at every poll, and is named in one warning', async () => {
    const devices = [
      makeDevice({ id: 'controller-b', doors: [makeDoor({ id: DOOR_ID, name: 'Twin Gate', state: 'CLOSED' })] }),
      makeDevice({ id: 'controller-a', doors: [makeDoor({ id: DOOR_ID, name: 'Twin Gate', state: 'OPEN' })] }),
    ];
    const rig = await boot(devices, { contactSensor: true });
    for (let i = 0; i < POLLS; i += 1) {
      await rig.poll();
    }
    // The service lists the controllers the other way round: the same copy must win.
    rig.sim.devices.reverse();
    for (let i = 0; i < POLLS; i += 1) {
      await rig.poll();
    }
    expect(rig.api.registered.size).toBe(1);
    const accessory = [...rig.api.registered.values()][0];
    expect(accessory?.context).toMatchObject({ doorId: DOOR_ID, deviceId: 'controller-a', state: 'OPEN' });
    expect(rig.texts().filter((t) => t.includes('changed outside HomeKit'))).toEqual([]);
    expect(rig.texts('warn')).toEqual([
      `The account lists the same door under more than one controller; each is shown once, as the door of the first controller by id: door ${DOOR_ID} (controllers controller-a, controller-b).`,
    ]);
  });
});

describe('a part of the account that cannot be read', () => {
  it('is reported once, again only when the problem changes, and its end is said once', async () => {
    const rig = await boot([makeDevice({ id: 'controller-a', doors: [makeDoor({ name: 'Front Gate' })] })]);
    const answer = (doors: unknown[]) => ({
      kind: 'status' as const,
      status: 200,
      body: JSON.stringify({ devices: [{ id: 'controller-a', doors }] }),
    });
    const good = { id: rig.sim.devices[0]?.doors[0]?.id, name: 'Front Gate', state: 'CLOSED' };
    rig.sim.setFault('sync', answer([good, { name: 'No Id' }]));
    for (let i = 0; i < POLLS; i += 1) {
      await rig.poll();
    }
    rig.sim.setFault('sync', answer([good, { name: 'No Id' }, { name: 'Another' }]));
    for (let i = 0; i < POLLS; i += 1) {
      await rig.poll();
    }
    rig.sim.setFault('sync', null);
    for (let i = 0; i < POLLS; i += 1) {
      await rig.poll();
    }
    expect(rig.texts('warn')).toEqual([
      expect.stringMatching(/^Part of the account could not be read and is left as it was: devices\.0\.doors\.1\.id: [^;]+\.$/) as unknown,
      expect.stringMatching(
        /^Part of the account could not be read and is left as it was: devices\.0\.doors\.1\.id: .+; devices\.0\.doors\.2\.id: .+\.$/,
      ) as unknown,
    ]);
    expect(rig.texts('info').filter((t) => t === 'Every part of the account can be read again.')).toHaveLength(1);
    expect(rig.api.registered.size).toBe(1);
  });
});
