#!/bin/sh
# `npm run test:matrix` (the second half of `npm test`): the e2e suite on the current Homebridge 2.x: in full on the first
# Node of the matrix (22, the LTS line most Homebridge 2 users run), and a smoke subset (the plugin's core: pair, read,
# open, close, outage, restart) on the others, side by side (each suite mostly waits on real time: polls, Homebridge's
# own exits). The first `vitest run` covers Homebridge 1.11 on the Node running npm (20), in full too.
#
# E2E_HOMEBRIDGE makes test/e2e/global-setup.ts install that Homebridge into .cache/homebridge-<version> (with the
# test-only hap-nodejs override, see test/support/npm-prefix.ts) and point the harness at it. With REPORT_DIR set, each
# suite writes its own vitest-homebridge-<version>-node<major>.json there (vitest.config.ts).
set -u
cd "$(dirname "$0")/../.."

HOMEBRIDGE="${E2E_HOMEBRIDGE:-2.4.0}"
NODES="${MATRIX_NODES:-22 24 26}"
# What the other Nodes run: one file that goes through every path a user takes, on Node's own differences (its HTTP,
# crypto and timers) rather than the plugin's logic, which the full suites cover. MATRIX_SMOKE="" runs every file there too.
SMOKE="${MATRIX_SMOKE-test/e2e/plugin.test.ts}"
FULL_NODE="${NODES%% *}"
# The full suite runs three files at a time (each mostly waits on real time); a smoke suite one. Two full suites side by side
# would put eight Homebridges on two cores; this keeps at most five, and three once the smoke files are done.
FULL_WORKERS="${E2E_WORKERS:-3}"
SMOKE_WORKERS="${E2E_SMOKE_WORKERS:-1}"

# `npm test` (test/run-all.sh) builds once for every part running side by side: a build here would empty dist/ under them.
if [ "${E2E_SKIP_BUILD:-0}" != 1 ]; then
  npm run build >/dev/null || { echo "matrix: npm run build failed" >&2; exit 1; }
fi

status_dir="$(mktemp -d)"
trap 'rm -rf "$status_dir"' EXIT
for node in $NODES; do
  files=""
  workers="$FULL_WORKERS"
  [ "$node" = "$FULL_NODE" ] || { files="$SMOKE"; workers="$SMOKE_WORKERS"; }
  (
    # shellcheck disable=SC2086 # files is a list of paths without spaces
    E2E_SKIP_BUILD=1 E2E_HOMEBRIDGE="$HOMEBRIDGE" E2E_WORKERS="$workers" \
      npx -y "node@$node" node_modules/vitest/vitest.mjs run --project e2e --exclude test/e2e/harness.test.ts $files 2>&1
    echo $? >"$status_dir/$node"
  ) | sed -u "s/^/[homebridge $HOMEBRIDGE, node $node] /" &
done
wait

status=0
for node in $NODES; do
  code="$(cat "$status_dir/$node" 2>/dev/null || echo missing)"
  what="smoke ($SMOKE)"
  [ "$node" = "$FULL_NODE" ] || [ -n "$SMOKE" ] || what="every file"
  [ "$node" != "$FULL_NODE" ] || what="every file"
  echo "matrix: Homebridge $HOMEBRIDGE on Node $node, $what: exit $code"
  [ "$code" = 0 ] || status=1
done
exit "$status"
