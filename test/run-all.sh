#!/bin/sh
# `npm test`: every suite, six parts after one build. First the fast projects (unit, system, stress), which compute the
# whole time they run, with the two parts that run longest one after another: the Matter tests in their network namespace
# (test/matter/run.sh) and `npm run demo` run three times in a row (test/demo/, vitest's demo project). Once the fast
# projects end, the three parts of many Homebridges: the e2e suite on Homebridge 1.11 with the Node running npm, the
# e2e matrix on Homebridge 2.4 (test/e2e/matrix.sh), and the settings page and the package (vitest's ui project).
# All but the fast projects mostly wait on real time (polls, Homebridges starting and stopping, a browser): one after
# another they took about 16 minutes here, side by side about the longest of them. Beside the many Homebridges' starts,
# the fast projects lost the cores for seconds at a time and tests that wait on time failed (each green alone): so they
# have the machine's cores to themselves but for Matter's and the demo's first starts, for about a minute.
#
# Each part builds nothing of its own (dist/ is built once here: a second `npm run build` would empty it under another
# part), and Homebridge 2.4's test install in .cache is shared behind its lock (test/support/npm-prefix.ts). The exit
# code is non-zero when any part failed; each part still runs to its end. Arguments go to the fast projects' `vitest run`.
# TEST_PARTS picks parts ("fast matter demo e2e matrix ui"), for a run by hand.
set -u
cd "$(dirname "$0")/.."

PARTS="${TEST_PARTS:-fast matter demo e2e matrix ui}"

npm run build >/dev/null || { echo "test: npm run build failed" >&2; exit 1; }
export E2E_SKIP_BUILD=1 UI_SKIP_BUILD=1 MATTER_SKIP_BUILD=1

status_dir="$(mktemp -d)"
trap 'rm -rf "$status_dir"' EXIT
# The parts of many Homebridges start once the fast projects have ended (when those run at all): when fast_done exists.
fast_done=""
case " $PARTS " in *" fast "*) fast_done="$status_dir/fast.done" ;; esac
after_fast() {
  if [ -n "$fast_done" ]; then while [ ! -f "$fast_done" ]; do sleep 1; done; fi
}

for part in $PARTS; do
  case "$part" in
    fast) ( (REPORT_SUITE=fast node_modules/.bin/vitest run --project unit --project system --project stress "$@"
      echo $? >"$status_dir/fast"; touch "$status_dir/fast.done") 2>&1 | sed -u 's/^/[fast] /') & ;;
    e2e) ( (after_fast; node_modules/.bin/vitest run --project e2e; echo $? >"$status_dir/e2e") 2>&1 | sed -u 's/^/[e2e] /') & ;;
    ui) ( (after_fast; REPORT_SUITE=ui node_modules/.bin/vitest run --project ui; echo $? >"$status_dir/ui") 2>&1 | sed -u 's/^/[ui] /') & ;;
    matrix) (after_fast; sh test/e2e/matrix.sh; echo $? >"$status_dir/matrix") 2>&1 & ;;
    # Matter's smoke run on its second Node starts once the fast projects have ended (when they run at all).
    matter) ( (MATTER_OTHERS_AFTER="$fast_done" sh test/matter/run.sh; echo $? >"$status_dir/matter") 2>&1 | sed -u 's/^/[matter] /') & ;;
    demo) ( (REPORT_SUITE=demo node_modules/.bin/vitest run --project demo; echo $? >"$status_dir/demo") 2>&1 | sed -u 's/^/[demo] /') & ;;
    *) echo "test: unknown part $part (fast, e2e, ui, matrix, matter or demo)" >&2; exit 2 ;;
  esac
done
wait

. test/support/exit-codes.sh
# shellcheck disable=SC2086 # PARTS is a list of words
exit_codes "$status_dir" "test:" $PARTS
