// Finds, in the installed HAP-NodeJS that Homebridge runs, how long it holds characteristic events before sending them.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { REPO_ROOT } from '../harness/homebridge-process.js';
import type { HomebridgePackage } from '../harness/homebridge-process.js';

/** Where HAP-NodeJS keeps its per-connection event queue and the characteristics it sends at once. */
const EVENTED_HTTP_FILE = path.join('dist', 'lib', 'util', 'eventedhttp.js');
const ACCESSORY_FILE = path.join('dist', 'lib', 'Accessory.js');
/** `this.eventsTimer = setTimeout(this.handleEventsTimeout.bind(this), 250);` in HAPConnection.sendEvent. */
const EVENTS_TIMER = /eventsTimer\s*=\s*setTimeout\(\s*this\.handleEventsTimeout\.bind\(this\)\s*,\s*(\d+)\s*\)/;
/** `var immediateDelivery = uuid === Characteristic.ButtonEvent.UUID || ...;` in Accessory.handleCharacteristicChangeEvent. */
const IMMEDIATE_DELIVERY = /immediateDelivery\s*=\s*([^;]+);/;
const CHARACTERISTIC_NAME = /Characteristic\.(\w+)\.UUID/g;

export interface HapCoalescing {
  /** e.g. `hap-nodejs` or `@homebridge/hap-nodejs`. */
  packageName: string;
  version: string;
  /** Repo-relative file holding the timer. */
  file: string;
  /** How long an event waits for others on the same connection; undefined if the source no longer matches. */
  delayMs: number | undefined;
  /** Characteristics sent at once instead (they also flush whatever is queued). */
  immediate: string[];
}

interface Manifest {
  version?: string;
  dependencies?: Record<string, string>;
}

function readManifest(dir: string): Manifest {
  return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Manifest;
}

/** Looks the HAP-NodeJS dependency of `homebridgePackage` up the way Node would (nested first, then hoisted). */
export function findHapCoalescing(homebridgePackage: HomebridgePackage): HapCoalescing {
  const homebridgeDir = path.join(REPO_ROOT, 'node_modules', homebridgePackage);
  const packageName = Object.keys(readManifest(homebridgeDir).dependencies ?? {}).find((name) => name.endsWith('hap-nodejs')) ?? 'hap-nodejs';
  const candidates = [path.join(homebridgeDir, 'node_modules', packageName), path.join(REPO_ROOT, 'node_modules', packageName)];
  for (const dir of candidates) {
    let source: string;
    try {
      source = readFileSync(path.join(dir, EVENTED_HTTP_FILE), 'utf8');
    } catch {
      continue;
    }
    const delay = EVENTS_TIMER.exec(source)?.[1];
    let immediate: string[] = [];
    try {
      const list = IMMEDIATE_DELIVERY.exec(readFileSync(path.join(dir, ACCESSORY_FILE), 'utf8'))?.[1] ?? '';
      immediate = [...list.matchAll(CHARACTERISTIC_NAME)].map((match) => match[1] ?? '').filter(Boolean);
    } catch {
      immediate = [];
    }
    return {
      packageName,
      version: readManifest(dir).version ?? 'unknown',
      file: path.relative(REPO_ROOT, path.join(dir, EVENTED_HTTP_FILE)),
      delayMs: delay === undefined ? undefined : Number(delay),
      immediate,
    };
  }
  return { packageName, version: 'not found', file: '', delayMs: undefined, immediate: [] };
}
