// The undici the client tests run on: the repo's own, or with UNDICI_UNDER_TEST=<npm prefix> another one installed there
// (test/package/undici-range.test.ts runs them on the lowest and the newest undici package.json allows).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** The prefix holding node_modules/undici, when the tests run on another undici than the repo's. */
export const UNDICI_PREFIX = process.env.UNDICI_UNDER_TEST;

/** Node's require, resolving `undici` and its files from where the undici under test is installed. */
export const requireUndici: NodeJS.Require = createRequire(
  UNDICI_PREFIX === undefined ? import.meta.url : path.join(path.resolve(UNDICI_PREFIX), 'package.json'),
);

interface Manifest {
  version: string;
  engines?: { node?: string };
}

/** The manifest of the undici under test. */
export function undiciManifest(): Manifest {
  return JSON.parse(readFileSync(requireUndici.resolve('undici/package.json'), 'utf8')) as Manifest;
}
