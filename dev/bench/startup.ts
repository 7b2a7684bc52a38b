// Start-up cost on each Node of the test matrix: the plugin's import time and the resident memory it adds to a bare Homebridge.
// Run by bench.ts once per Node (Node 20 itself, Node 22 and 24 through `npx -y node@N`), each run a process of its own that
// prints one JSON line; every measurement in it is a fresh process, so the module cache is always cold.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { PLATFORM_NAME, PLUGIN_NAME } from '../../src/settings.js';
import { HOMEBRIDGE_2_PREFIX, makeEmptyPluginDir, REPO_ROOT, startHomebridge } from '../harness/homebridge-process.js';
import type { HomebridgeProcess } from '../harness/homebridge-process.js';
import { AccessControlSimulator } from '../simulator/server.js';
import { memoryProbeEnv, readGcMemory, sleep, summarize } from './probes.js';
import type { Summary } from './probes.js';
import { scaleAccount } from './rig.js';

/** Env BENCH_STARTUP_RUNS=n runs fewer (a quick check of the bench itself), never more. */
const quick = Number(process.env.BENCH_STARTUP_RUNS ?? Number.NaN);
/** Cold imports of the plugin per Node and tree. */
export const IMPORT_RUNS = quick > 0 ? Math.min(quick, 9) : 9;
/** Rounds of bridges per Node: each round boots a bare bridge and one per door count and tree, side by side. */
export const MEMORY_ROUNDS = quick > 0 ? Math.min(quick, 5) : 5;
/** Account sizes of the plugin's bridges; 149 is the most one bridge holds. */
export const STARTUP_DOOR_COUNTS = [0, 3, 149] as const;
/** After the last door is in (or the first sync answered), before the full GC and the reading. */
export const STARTUP_SETTLE_MS = 3_000;
const READY_TIMEOUT_MS = 120_000;
const ACCESS_TOKEN = 'bench-startup-token-7d2a';
const SYNC_SUFFIX = '/endpoints/sync';
const ADDED_LINE = /Added .* to HomeKit/g;

/** A plugin tree to measure: this repo, or a baseline checkout (built, with node_modules) to compare against. */
export interface PluginTree {
  label: string;
  root: string;
}

export interface TreeResult {
  label: string;
  /** Cold `import()` of dist/index.js in a bare Node process. */
  importMs: Summary;
  /** VmRSS the import added in that process, KiB. */
  importRssKiB: Summary;
  /** Per door count: the bridge's VmRSS after a full GC, KiB. */
  bridgeRssKiB: { doorCount: number; rss: Summary; heapUsed: Summary }[];
}

/** What the plugin's dependencies cost alone (this tree, same method): what dominates the import. */
export const IMPORT_PARTS: { label: string; specifiers: string[] }[] = [
  {
    // Any first import of a file in a process started this way pays for Node's ES module loader (resolve, load, package
    // scopes); Homebridge 2.x, itself an ES module, has paid it before it imports a plugin.
    label: 'an empty ES module (`dev/bench/empty-module.ts`): the floor of this method, Node starting its ES module loader',
    specifiers: [new URL('./empty-module.js', import.meta.url).href],
  },
  { label: '`undici` (its main entry, all of it)', specifiers: ['undici'] },
  {
    label:
      'the three undici files the plugin takes (`src/client/undici.ts`), loaded as undici loads them: client.js requires its HTTP/2 connector, and with it node:http2, tls and crypto',
    // NARROW_FILES of src/client/undici.ts, written out: importing that module here would load undici into the bench itself.
    specifiers: ['undici/lib/dispatcher/agent.js', 'undici/lib/core/errors.js', 'undici/lib/api/api-request.js'],
  },
  { label: '`zod`', specifiers: ['zod'] },
  { label: '`zod/mini`', specifiers: ['zod/mini'] },
  { label: '`zod/v4/core`', specifiers: ['zod/v4/core'] },
  { label: '`zod/v4/locales` (all ~40 locales, which each of the three above loads)', specifiers: ['zod/v4/locales'] },
];

export interface PartResult {
  label: string;
  ms: Summary;
  rssKiB: Summary;
}

export interface NodeStartupResult {
  node: string;
  /** IMPORT_PARTS, on the first Node target only. */
  parts: PartResult[];
  homebridge: string;
  /** The same Homebridge with no plugin: VmRSS after a full GC, KiB. */
  bareRssKiB: Summary;
  /** Its V8 heap in use after that GC, KiB. */
  bareHeapKiB: Summary;
  trees: TreeResult[];
}

/** Node runs: this Node with the repo's Homebridge 1.11, and Node 22 and 24 with the e2e matrix's Homebridge 2.x. */
export interface NodeTarget {
  label: string;
  /** Command and arguments that run a Node script (the script path is appended). */
  command: string[];
  /** The npm prefix whose Homebridge to run (HB_PREFIX); undefined: the repo's own. */
  homebridgePrefix: string | undefined;
}

export const NODE_TARGETS: NodeTarget[] = [
  { label: 'Node 20', command: [process.execPath], homebridgePrefix: undefined },
  { label: 'Node 22', command: ['npx', '-y', 'node@22'], homebridgePrefix: HOMEBRIDGE_2_PREFIX },
  { label: 'Node 24', command: ['npx', '-y', 'node@24'], homebridgePrefix: HOMEBRIDGE_2_PREFIX },
];

/** This repo, and the baseline named by env BENCH_BASELINE_ROOT (a built checkout of an earlier commit), if any. */
export function pluginTrees(): PluginTree[] {
  const commit = (root: string): string => {
    try {
      return execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    } catch {
      return 'unknown commit';
    }
  };
  const trees: PluginTree[] = [];
  const baseline = process.env.BENCH_BASELINE_ROOT;
  if (baseline !== undefined && baseline !== '') {
    trees.push({ label: `before (${commit(baseline)})`, root: path.resolve(baseline) });
  }
  trees.push({ label: `after (this tree, at ${commit(REPO_ROOT)})`, root: REPO_ROOT });
  return trees;
}

// --- In the per-Node process.

const IMPORT_SCRIPT = [
  'const before = process.memoryUsage().rss;',
  'const start = performance.now();',
  'for (const specifier of JSON.parse(process.env.BENCH_IMPORT_SPECS)) await import(specifier);',
  'const ms = performance.now() - start;',
  'console.log(JSON.stringify({ ms, rssKiB: (process.memoryUsage().rss - before) / 1024 }));',
].join('\n');

/** Imports `specifiers` (resolved from `root`) in a fresh Node process: how long it took and the VmRSS it added. */
async function importOnce(root: string, specifiers: string[]): Promise<{ ms: number; rssKiB: number }> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', IMPORT_SCRIPT], {
    cwd: root,
    env: { ...process.env, BENCH_IMPORT_SPECS: JSON.stringify(specifiers) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => (out += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (code !== 0) {
    throw new Error(`importing ${specifiers.join(', ')} failed (exit ${String(code)})`);
  }
  return JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as { ms: number; rssKiB: number };
}

interface Bridge {
  hb: HomebridgeProcess;
  close: () => Promise<void>;
}

async function bootBridge(
  pluginRoot: string | undefined,
  doorCount: number,
): Promise<{ bridge: Bridge; sim: AccessControlSimulator | undefined }> {
  const storageDir = await mkdtemp(path.join(tmpdir(), 'hb-bench-startup-'));
  let pluginDir: string;
  if (pluginRoot === undefined) {
    pluginDir = await makeEmptyPluginDir();
  } else {
    pluginDir = await mkdtemp(path.join(tmpdir(), 'hb-bench-startup-plugins-'));
    await symlink(pluginRoot, path.join(pluginDir, PLUGIN_NAME), 'dir');
  }
  let sim: AccessControlSimulator | undefined;
  let hb: HomebridgeProcess | undefined;
  const close = async (): Promise<void> => {
    await hb?.stop();
    await sim?.stop();
    await rm(storageDir, { recursive: true, force: true });
    await rm(pluginDir, { recursive: true, force: true });
  };
  try {
    const platforms: Record<string, unknown>[] = [];
    if (pluginRoot !== undefined) {
      sim = new AccessControlSimulator({ accessToken: ACCESS_TOKEN, host: '127.0.0.1', devices: scaleAccount(doorCount) });
      await sim.start();
      platforms.push({ platform: PLATFORM_NAME, name: 'Access Control', accessToken: ACCESS_TOKEN, baseUrl: sim.baseUrl });
    }
    hb = await startHomebridge({
      platforms,
      storageDir,
      pluginDir,
      debug: false,
      bridgeName: 'Bench Startup',
      env: memoryProbeEnv(),
      bootTimeoutMs: READY_TIMEOUT_MS,
    });
    const deadline = Date.now() + READY_TIMEOUT_MS;
    // The plugin's bridges: the first sync answered and every door registered.
    while (sim !== undefined && (sim.countRequests(SYNC_SUFFIX) < 1 || (hb.log().match(ADDED_LINE) ?? []).length < doorCount)) {
      if (Date.now() > deadline || hb.exited !== undefined) {
        throw new Error(`the plugin did not register ${doorCount} doors in time`);
      }
      await sleep(200);
    }
    return { bridge: { hb, close }, sim };
  } catch (error) {
    await close();
    throw error;
  }
}

async function measureHere(trees: PluginTree[], withParts: boolean, progress: (text: string) => void): Promise<NodeStartupResult> {
  const parts: PartResult[] = [];
  for (const part of withParts ? IMPORT_PARTS : []) {
    const ms: number[] = [];
    const rss: number[] = [];
    for (let run = 0; run < IMPORT_RUNS; run += 1) {
      const result = await importOnce(REPO_ROOT, part.specifiers);
      ms.push(result.ms);
      rss.push(result.rssKiB);
    }
    parts.push({ label: part.label, ms: summarize(ms), rssKiB: summarize(rss) });
  }
  const imports = trees.map(() => ({ ms: [] as number[], rss: [] as number[] }));
  for (let run = 0; run < IMPORT_RUNS; run += 1) {
    // Alternating the trees, so a burst of load on the machine hits both.
    for (const [i, tree] of trees.entries()) {
      const result = await importOnce(tree.root, [pathToFileURL(path.join(tree.root, 'dist', 'index.js')).href]);
      imports[i]?.ms.push(result.ms);
      imports[i]?.rss.push(result.rssKiB);
    }
  }
  const bare: number[] = [];
  const bareHeap: number[] = [];
  const bridges = trees.map(() => STARTUP_DOOR_COUNTS.map(() => ({ rss: [] as number[], heap: [] as number[] })));
  let homebridge = 'unknown';
  for (let round = 0; round < MEMORY_ROUNDS; round += 1) {
    progress(`start-up, ${process.version}: memory round ${round + 1} of ${MEMORY_ROUNDS}`);
    const jobs = [
      { tree: -1, count: -1, boot: bootBridge(undefined, 0) },
      ...trees.flatMap((tree, t) => STARTUP_DOOR_COUNTS.map((count, c) => ({ tree: t, count: c, boot: bootBridge(tree.root, count) }))),
    ];
    const settled = await Promise.allSettled(jobs.map((job) => job.boot));
    try {
      const failure = settled.find((s) => s.status === 'rejected');
      if (failure) {
        throw failure.reason;
      }
      await sleep(STARTUP_SETTLE_MS);
      for (const [j, job] of jobs.entries()) {
        const s = settled[j];
        if (s?.status !== 'fulfilled') {
          continue;
        }
        homebridge = s.value.bridge.hb.version;
        const memory = await readGcMemory({ hb: s.value.bridge.hb, memoryProbe: true });
        if (memory === undefined) {
          throw new Error('the memory probe did not answer');
        }
        if (job.tree < 0) {
          bare.push(memory.rssKiB);
          bareHeap.push(memory.heapUsedKiB);
        } else {
          bridges[job.tree]?.[job.count]?.rss.push(memory.rssKiB);
          bridges[job.tree]?.[job.count]?.heap.push(memory.heapUsedKiB);
        }
      }
    } finally {
      await Promise.all(settled.map((s) => (s.status === 'fulfilled' ? s.value.bridge.close() : Promise.resolve())));
    }
  }
  return {
    node: process.version,
    parts,
    homebridge,
    bareRssKiB: summarize(bare),
    bareHeapKiB: summarize(bareHeap),
    trees: trees.map((tree, t) => ({
      label: tree.label,
      importMs: summarize(imports[t]?.ms ?? []),
      importRssKiB: summarize(imports[t]?.rss ?? []),
      bridgeRssKiB: STARTUP_DOOR_COUNTS.map((doorCount, c) => ({
        doorCount,
        rss: summarize(bridges[t]?.[c]?.rss ?? []),
        heapUsed: summarize(bridges[t]?.[c]?.heap ?? []),
      })),
    })),
  };
}

// --- In the bench: one process per Node target.

const SCRIPT = fileURLToPath(import.meta.url);
const RESULT_MARK = 'bench-startup-result ';

export interface StartupResult {
  trees: PluginTree[];
  nodes: (NodeStartupResult & { target: string })[];
  startedAt: Date;
  ms: number;
}

export async function measureStartup(progress: (text: string) => void): Promise<StartupResult> {
  const startedAt = new Date();
  const start = performance.now();
  const trees = pluginTrees();
  const nodes: StartupResult['nodes'] = [];
  for (const target of NODE_TARGETS) {
    const prefix = target.homebridgePrefix;
    if (prefix !== undefined && !existsSync(path.join(prefix, 'node_modules', 'homebridge'))) {
      progress(
        `start-up on ${target.label} skipped: ${path.relative(REPO_ROOT, prefix)} is not installed (npm run test:matrix installs it).`,
      );
      continue;
    }
    progress(`start-up on ${target.label} (Homebridge in ${prefix === undefined ? 'node_modules' : path.relative(REPO_ROOT, prefix)})…`);
    const [command = process.execPath, ...args] = target.command;
    const withParts = target === NODE_TARGETS[0];
    const child = spawn(command, [...args, SCRIPT, JSON.stringify(trees), withParts ? 'parts' : 'no-parts'], {
      cwd: REPO_ROOT,
      env: { ...process.env, HB_PREFIX: prefix ?? '' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => (out += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    const line = out.split('\n').find((l) => l.startsWith(RESULT_MARK));
    if (code !== 0 || line === undefined) {
      throw new Error(`the start-up measurement on ${target.label} failed (exit ${String(code)})`);
    }
    nodes.push({ target: target.label, ...(JSON.parse(line.slice(RESULT_MARK.length)) as NodeStartupResult) });
  }
  return { trees, nodes, startedAt, ms: performance.now() - start };
}

if (process.argv[1] === SCRIPT) {
  const trees = JSON.parse(process.argv[2] ?? '[]') as PluginTree[];
  measureHere(trees, process.argv[3] === 'parts', (text) => process.stderr.write(`bench: ${text}\n`))
    .then((result) => {
      process.stdout.write(`${RESULT_MARK}${JSON.stringify(result)}\n`);
      // The harness's exit hook and the simulators' sockets: nothing is left to wait for.
      process.exit(0);
    })
    .catch((error: unknown) => {
      process.stderr.write(
        `bench: start-up measurement failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exit(1);
    });
}
