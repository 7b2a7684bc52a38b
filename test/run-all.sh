#!/bin/sh
# `npm test`: every suite, six parts after one build, all side by side from the start: the fast projects (unit, system,
# stress), the e2e suite on Homebridge 1.11 with the Node running npm, the settings page and the package (vitest's ui
# project), the e2e matrix on Homebridge 2.4 (test/e2e/matrix.sh), the Matter tests in their network namespace
# (test/matter/run.sh), and `npm run demo` run three times in a row (test/demo/, vitest's demo project).
# All but the fast projects mostly wait on real time (polls, Homebridges starting and stopping, a browser), not on the two
# cores: one after another they took about 16 minutes here, side by side about the longest of them. The fast projects
# are the one part that computes the whole time it runs, so they run at a lower priority (FAST_NICE): a waiting part
# that wakes (a Homebridge answering, a page drawing) gets a core at once, and the fast projects take what is left.
# Before, the ui part waited for the first part's end and the e2e suite for the fast projects': CI took 10 minutes.
#
# Each part builds nothing of its own (dist/ is built once here: a second `npm run build` would empty it under another
# part), and Homebridge 2.4's test install in .cache is shared behind its lock (test/support/npm-prefix.ts). The exit
# code is non-zero when any part failed; each part still runs to its end. Arguments go to the fast projects' `vitest run`.
# TEST_PARTS picks parts ("fast e2e ui matrix matter demo"), for a run by hand.
set -u
cd "$(dirname "$0")/.."

PARTS="${TEST_PARTS:-fast e2e ui matrix matter demo}"
# The fast projects' niceness (0 to 19; higher yields more): above the waiting parts' 0, so they never starve them.
FAST_NICE=5

npm run build >/dev/null || { echo "test: npm run build failed" >&2; exit 1; }
export E2E_SKIP_BUILD=1 UI_SKIP_BUILD=1 MATTER_SKIP_BUILD=1

status_dir="$(mktemp -d)"
trap 'rm -rf "$status_dir"' EXIT

for part in $PARTS; do
  case "$part" in
    fast) ( (REPORT_SUITE=fast nice -n "$FAST_NICE" node_modules/.bin/vitest run --project unit --project system --project stress "$@"
      echo $? >"$status_dir/fast") 2>&1 | sed -u 's/^/[fast] /') & ;;
    e2e) ( (node_modules/.bin/vitest run --project e2e; echo $? >"$status_dir/e2e") 2>&1 | sed -u 's/^/[e2e] /') & ;;
    ui) ( (REPORT_SUITE=ui node_modules/.bin/vitest run --project ui; echo $? >"$status_dir/ui") 2>&1 | sed -u 's/^/[ui] /') & ;;
    matrix) (sh test/e2e/matrix.sh; echo $? >"$status_dir/matrix") 2>&1 & ;;
    matter) ( (sh test/matter/run.sh; echo $? >"$status_dir/matter") 2>&1 | sed -u 's/^/[matter] /') & ;;
    demo) ( (REPORT_SUITE=demo node_modules/.bin/vitest run --project demo; echo $? >"$status_dir/demo") 2>&1 | sed -u 's/^/[demo] /') & ;;
    *) echo "test: unknown part $part (fast, e2e, ui, matrix, matter or demo)" >&2; exit 2 ;;
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
