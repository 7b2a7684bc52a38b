// Pauses: a plain delay, a random one, and "until this performance.now() instant".
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';

export function sleep(ms: number): Promise<void> {
  return delay(Math.max(0, ms));
}

/** A whole number of ms, uniform in [minMs, maxMs]. */
export function randomBetween(minMs: number, maxMs: number): number {
  return Math.round(minMs + Math.random() * (maxMs - minMs));
}

export function sleepUntil(perfMs: number): Promise<void> {
  return sleep(perfMs - performance.now());
}
