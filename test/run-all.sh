#!/bin/sh
# `npm test`: every suite, five parts after one build. The first `vitest run` (unit, system, stress, then the e2e suite
# on Homebridge 1.11 with the Node running npm), then the settings page and the package (vitest's ui project, its own
# report; it starts when the first part ends), and side by side with those two, the e2e matrix on
# Homebridge 2.4 (test/e2e/matrix.sh), the Matter tests in their network namespace (test/matter/run.sh), and
# `npm run demo` run three times in a row (test/demo/, vitest's demo project, nearly all of it waiting).
# They mostly wait on real time (polls, Homebridges starting and stopping, a browser), not on the two cores: one after
# another they took about 16 minutes here, side by side about the longest of them.
#
# Each part builds nothing of its own (dist/ is built once here: a second `npm run build` would empty it under another
# part), and Homebridge 2.4's test install in .cache is shared behind its lock (test/support/npm-prefix.ts). The exit
# code is non-zero when any part failed; each part still runs to its end. Arguments go to the first `vitest run`.
# TEST_PARTS picks parts ("vitest ui matrix matter demo"), for a run by hand.
set -u
cd "$(dirname "$0")/.."

PARTS="${TEST_PARTS:-vitest ui matrix matter demo}"

npm run build >/dev/null || { echo "test: npm run build failed" >&2; exit 1; }
export E2E_SKIP_BUILD=1 UI_SKIP_BUILD=1 MATTER_SKIP_BUILD=1

status_dir="$(mktemp -d)"
trap 'rm -rf "$status_dir"' EXIT

for part in $PARTS; do
  case "$part" in
    # The ui part starts once the first part has ended (when both are asked for): beside the e2e suite's Homebridges and
    # the fast projects' cores, its Chromium and Homebridge UI timed out in CI (three tests of 53, each green alone).
    vitest) (node_modules/.bin/vitest run --project unit --project system --project stress --project e2e "$@"; echo $? >"$status_dir/vitest"; touch "$status_dir/vitest.done") & ;;
    ui) ( (if echo " $PARTS " | grep -q ' vitest '; then while [ ! -f "$status_dir/vitest.done" ]; do sleep 2; done; fi
      REPORT_SUITE=ui node_modules/.bin/vitest run --project ui; echo $? >"$status_dir/ui") 2>&1 | sed -u 's/^/[ui] /') & ;;
    matrix) (sh test/e2e/matrix.sh; echo $? >"$status_dir/matrix") 2>&1 & ;;
    matter) ( (sh test/matter/run.sh; echo $? >"$status_dir/matter") 2>&1 | sed -u 's/^/[matter] /') & ;;
    demo) ( (REPORT_SUITE=demo node_modules/.bin/vitest run --project demo; echo $? >"$status_dir/demo") 2>&1 | sed -u 's/^/[demo] /') & ;;
    *) echo "test: unknown part $part (vitest, ui, matrix, matter or demo)" >&2; exit 2 ;;
  esac
done
wait

status=0
for part in $PARTS; do
  code="$(cat "$status_dir/$part" 2>/dev/null || echo missing)"
  echo "test: $part: exit $code"
  [ "$code" = 0 ] || status=1
done
exit "$status"
