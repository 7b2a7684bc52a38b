#!/bin/sh
# `npm test`: every suite, the four parts side by side after one build. The first `vitest run` (unit, system, stress,
# then the e2e suite on Homebridge 1.11 with the Node running npm, then the settings page and the package), the e2e
# matrix on Homebridge 2.4 (test/e2e/matrix.sh), the Matter tests in their network namespace (test/matter/run.sh), and
# `npm run demo` run twice in a row (test/demo/, vitest's demo project: about five minutes, nearly all of it waiting).
# They mostly wait on real time (polls, Homebridges starting and stopping, a browser), not on the two cores: one after
# another they took about 16 minutes here, side by side about the longest of them.
#
# Each part builds nothing of its own (dist/ is built once here: a second `npm run build` would empty it under another
# part), and Homebridge 2.4's test install in .cache is shared behind its lock (test/support/npm-prefix.ts). The exit
# code is non-zero when any part failed; each part still runs to its end. Arguments go to the first `vitest run`.
# TEST_PARTS picks parts ("vitest matrix matter demo"), for a run by hand.
set -u
cd "$(dirname "$0")/.."

PARTS="${TEST_PARTS:-vitest matrix matter demo}"

npm run build >/dev/null || { echo "test: npm run build failed" >&2; exit 1; }
export E2E_SKIP_BUILD=1 UI_SKIP_BUILD=1 MATTER_SKIP_BUILD=1

status_dir="$(mktemp -d)"
trap 'rm -rf "$status_dir"' EXIT

for part in $PARTS; do
  case "$part" in
    vitest) (node_modules/.bin/vitest run "$@"; echo $? >"$status_dir/vitest") & ;;
    matrix) (sh test/e2e/matrix.sh; echo $? >"$status_dir/matrix") 2>&1 & ;;
    matter) ( (sh test/matter/run.sh; echo $? >"$status_dir/matter") 2>&1 | sed -u 's/^/[matter] /') & ;;
    demo) ( (REPORT_SUITE=demo node_modules/.bin/vitest run --project demo; echo $? >"$status_dir/demo") 2>&1 | sed -u 's/^/[demo] /') & ;;
    *) echo "test: unknown part $part (vitest, matrix, matter or demo)" >&2; exit 2 ;;
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
