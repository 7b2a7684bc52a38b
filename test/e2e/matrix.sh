#!/bin/sh
# `npm run test:matrix` (the second half of `npm test`): the e2e suite on the current Homebridge 2.x, once per Node of the
# matrix, side by side (each suite mostly waits on real time: polls, Homebridge's own exits). The first `vitest run`
# covers Homebridge 1.11 on the Node running npm (20).
#
# E2E_HOMEBRIDGE makes test/e2e/global-setup.ts install that Homebridge into .cache/homebridge-<version> (with the
# test-only hap-nodejs override, see test/support/npm-prefix.ts) and point the harness at it. With REPORT_DIR set, each
# suite writes its own vitest-homebridge-<version>-node<major>.json there (vitest.config.ts).
set -u
cd "$(dirname "$0")/../.."

HOMEBRIDGE="${E2E_HOMEBRIDGE:-2.4.0}"
NODES="${MATRIX_NODES:-22 24 26}"
# Two files at a time per suite would put six Homebridges on two cores; one each keeps three.
WORKERS="${E2E_WORKERS:-1}"

npm run build >/dev/null || { echo "matrix: npm run build failed" >&2; exit 1; }

status_dir="$(mktemp -d)"
trap 'rm -rf "$status_dir"' EXIT
for node in $NODES; do
  (
    E2E_SKIP_BUILD=1 E2E_HOMEBRIDGE="$HOMEBRIDGE" E2E_WORKERS="$WORKERS" \
      npx -y "node@$node" node_modules/vitest/vitest.mjs run --project e2e --exclude test/e2e/harness.test.ts 2>&1
    echo $? >"$status_dir/$node"
  ) | sed -u "s/^/[homebridge $HOMEBRIDGE, node $node] /" &
done
wait

status=0
for node in $NODES; do
  code="$(cat "$status_dir/$node" 2>/dev/null || echo missing)"
  echo "matrix: Homebridge $HOMEBRIDGE on Node $node: exit $code"
  [ "$code" = 0 ] || status=1
done
exit "$status"
