// Vitest: the fast projects (unit, system, stress) run their files in parallel, side by side; e2e tests (real Homebridge
// processes) three files at a time after one build; ui tests (the real Homebridge UI in Chromium) two files at a time, last.
import { defineConfig } from 'vitest/config';

/** A Homebridge boot + pair-setup + restart fits comfortably; a hung child is cut off by the harness first. */
const E2E_TIMEOUT_MS = 120_000;
/** Homebridges booted side by side; each is light, but the machine has two cores. E2E_WORKERS lowers it when suites run side by side. */
const E2E_WORKERS = Number(process.env.E2E_WORKERS ?? 3);
/** UI test files side by side (issue 32.4: CI in ten minutes); each starts its own UI, Homebridge and Chromium. */
const UI_WORKERS = Number(process.env.UI_WORKERS ?? 2);
/** One UI test: opening the settings, a save and a Homebridge restart (~10 s of it) fit well within this. */
const UI_TEST_TIMEOUT_MS = 180_000;
/** beforeAll/afterAll of a UI file start or stop hb-service, Homebridge and Chromium. */
const UI_HOOK_TIMEOUT_MS = 180_000;

/**
 * One unit, system or stress test. They run beside the Homebridges of the e2e matrix and the Matter run on two cores: a
 * property test of thousands of generated cases (homekit-name, the webhook burst) takes seconds there, past vitest's
 * default of 5 s. A test that hangs still fails, at this bound; none asserts a duration.
 */
const FAST_TEST_TIMEOUT_MS = 30_000;

/**
 * The fast projects' workers. Vitest's default is one fewer than the cores: one worker on two, and `npm run test:fast`
 * took 105 s where two take under 40.
 */
const FAST_WORKERS = Number(process.env.FAST_WORKERS ?? 2);
/**
 * The fast projects share each worker's modules between their files (vitest's isolate off): importing the plugin anew for
 * each of 140 files was most of their time. It holds because no fast test replaces a module (vi.mock) or leaves state
 * behind: a seam is passed in instead (writeHistoryFile's rename), and test/unit/source-layout.test.ts refuses vi.mock.
 */
const FAST_ISOLATE = false;

/** One Matter test: a Homebridge 2.4 boot with Matter, commissioning and a restart fit well within this. */
const MATTER_TIMEOUT_MS = 120_000;
/** The demo's test sets its own time per test (two whole tours); its setup builds dist/ and dist-dev/. */
const DEMO_HOOK_TIMEOUT_MS = 240_000;

/** CI sets REPORT_DIR to collect one JSON report per run and print one closing line: one file per Homebridge and Node. */
const reportDir = process.env.REPORT_DIR;
const homebridgeName = process.env.E2E_HOMEBRIDGE ? `homebridge-${process.env.E2E_HOMEBRIDGE}` : 'homebridge';
/** REPORT_SUITE names a run that is not one of the above (test/matter/run.sh: "matter"), so its report is a file of its own. */
const suiteName = process.env.REPORT_SUITE ? `${process.env.REPORT_SUITE}-` : '';
const reportFile = `${reportDir}/vitest-${suiteName}${homebridgeName}-node${process.versions.node.split('.')[0] ?? ''}.json`;

/**
 * The matter project runs only when named (`--project matter`, as test/matter/run.sh does inside its network namespace on
 * Node 22 and 24 with Homebridge 2.4): the default run is Node 20 with Homebridge 1.11, where Matter does not exist.
 */
const asked = (name: string): boolean =>
  process.argv.some((arg, i) => arg === `--project=${name}` || (arg === '--project' && process.argv[i + 1] === name));
const matterAsked = asked('matter');
/**
 * The demo project runs only when named (`--project demo`: test/run-all.sh runs it as a part of its own, beside the
 * others, as its two whole tours take about five minutes of mostly waiting).
 */
const demoAsked = asked('demo');

export default defineConfig({
  test: {
    reporters: reportDir ? ['default', ['json', { outputFile: reportFile }]] : ['default'],
    testTimeout: FAST_TEST_TIMEOUT_MS,
    projects: [
      // unit, system and stress share the first group (no groupOrder): one pool for all their files, as before the split.
      {
        extends: true,
        test: {
          name: 'unit',
          isolate: FAST_ISOLATE,
          maxWorkers: FAST_WORKERS,
          // The units mirroring src/, and the dev tools' own tests (the simulator's).
          include: ['test/unit/**/*.test.ts', 'test/dev/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'system',
          isolate: FAST_ISOLATE,
          maxWorkers: FAST_WORKERS,
          // The whole platform on the Homebridge double (test/support/homebridge-double.ts) against the simulator.
          include: ['test/system/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'stress',
          isolate: FAST_ISOLATE,
          maxWorkers: FAST_WORKERS,
          // Property-based tests, the webhook load test and the 100,000-iteration soak: the slowest of the fast projects.
          include: ['test/stress/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/e2e/global-setup.ts'],
          testTimeout: E2E_TIMEOUT_MS,
          hookTimeout: E2E_TIMEOUT_MS,
          // Each file boots its own Homebridge on its own ports and storage, and mostly waits on real time
          // (polls, Homebridge's 5 s exit), so three files side by side cut the wall time without crowding two cores.
          fileParallelism: true,
          maxWorkers: E2E_WORKERS,
          // After the unit, system and stress tests, which get the whole machine.
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'ui',
          // The settings page in the real UI, and the package test, which installs the same tarball next to a fresh Homebridge.
          include: ['test/ui/**/*.test.ts', 'test/package/**/*.test.ts'],
          // Builds, packs and installs the plugin with homebridge-config-ui-x once (test/ui/ui-env.ts): one pack per run.
          globalSetup: ['test/ui/global-setup.ts'],
          testTimeout: UI_TEST_TIMEOUT_MS,
          hookTimeout: UI_HOOK_TIMEOUT_MS,
          // A UI (Node 24), Homebridge and Chromium per file, each on its own ports and storage: two files side by side
          // (they mostly wait on Homebridge and the page); UI_WORKERS=1 runs one at a time.
          fileParallelism: UI_WORKERS > 1,
          maxWorkers: UI_WORKERS,
          // Last, after the fast projects and the e2e tests.
          sequence: { groupOrder: 2 },
        },
      },
      ...(matterAsked
        ? [
            {
              extends: true as const,
              test: {
                name: 'matter',
                // A real Matter controller (dev/harness/matter-controller.ts) against Homebridge 2.4 with Matter on.
                include: ['test/matter/**/*.test.ts'],
                globalSetup: ['test/matter/global-setup.ts'],
                testTimeout: MATTER_TIMEOUT_MS,
                hookTimeout: MATTER_TIMEOUT_MS,
                // One Homebridge with Matter at a time: every file shares the namespace's one veth pair and mDNS.
                fileParallelism: false,
                maxWorkers: 1,
              },
            },
          ]
        : []),
      ...(demoAsked
        ? [
            {
              extends: true as const,
              test: {
                name: 'demo',
                // `npm run demo` as users run it (dist-dev/dev/demo/demo.js), twice in a row.
                include: ['test/demo/**/*.test.ts'],
                globalSetup: ['test/demo/global-setup.ts'],
                hookTimeout: DEMO_HOOK_TIMEOUT_MS,
                fileParallelism: false,
                maxWorkers: 1,
              },
            },
          ]
        : []),
    ],
  },
});
