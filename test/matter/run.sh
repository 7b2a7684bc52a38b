#!/bin/sh
# `npm run test:matter` (the last part of `npm test`): the Matter tests (test/matter/*.test.ts) with a real Matter controller
# against Homebridge 2.4, inside a private network namespace: every test on Node 22, and beside it, in a namespace of its own,
# a smoke subset (commission, list every door, unlock and lock) on Node 24 (the two LTS lines Homebridge 2 users run;
# MATTER_NODES="26" or "22 24 26" picks others, MATTER_SMOKE="" runs every test on each).
#
# Why the namespace: Matter needs a network interface that is not loopback (mDNS, operational discovery), and these tests
# must not announce test bridges on, or depend on, the machine's own network. `unshare --net` (root) gives each run its own
# network stack; a veth pair in it is the interface Matter uses. Nothing can be downloaded inside, so everything a run
# needs (its Node, Homebridge 2.4 in .cache, the built plugin) is fetched and built before entering it.
#
# Where no namespace can be made (not root, no unshare or ip, or the kernel refuses), the run fails and says why: it never
# skips. Extra arguments go to vitest (e.g. a test file). With REPORT_DIR set, the JSON report of each Node is
# vitest-matter-homebridge-<version>-node<major>.json there (vitest.config.ts).
set -u
cd "$(dirname "$0")/../.."

HOMEBRIDGE_VERSION="2.4.0"
# MATTER_NODE (one Node) is still read, for a run by hand.
NODE_MAJORS="${MATTER_NODES:-${MATTER_NODE:-22 24}}"
FULL_MAJOR="${NODE_MAJORS%% *}"
# The other Nodes: the tests a Google Home or Alexa user needs first, by name (the later ones build on the first).
SMOKE="${MATTER_SMOKE-commissions the child bridge|unlock opens the door}"

fail() {
  echo "matter: $*" >&2
  echo "matter: the Matter tests did not run (what they need: CONTRIBUTING.md, \"Matter tests\")." >&2
  # CI's closing line reads one report per suite: each Node's says it failed, rather than leaving no trace.
  if [ -n "${REPORT_DIR:-}" ]; then
    mkdir -p "$REPORT_DIR"
    for major in ${FAILING_MAJORS:-$NODE_MAJORS}; do
      printf '{"success":false,"numPassedTests":0,"numFailedTests":1,"numPendingTests":0,"numTodoTests":0,"reason":"%s"}\n' \
        "$(printf '%s' "$*" | tr '"\\' "''")" >"$REPORT_DIR/vitest-matter-homebridge-$HOMEBRIDGE_VERSION-node$major.json"
    done
  fi
  exit 1
}

[ "$(id -u)" = 0 ] || fail "not root (uid $(id -u)): making a network namespace (unshare --net) needs root."
command -v unshare >/dev/null 2>&1 || fail "no unshare command (util-linux) to make a network namespace."
command -v ip >/dev/null 2>&1 || fail "no ip command (iproute2) to set up the namespace's veth pair."
unshare --net true 2>/dev/null || fail "unshare --net failed: this kernel or container does not allow a new network namespace."

if [ "${MATTER_SKIP_BUILD:-0}" != 1 ]; then
  npm run build >/dev/null || fail "npm run build failed."
fi
mkdir -p .cache/matter
# test/matter/prepare.ts installs Homebridge with the same code and overrides as the e2e matrix (test/support/npm-prefix.ts);
# esbuild makes it one file Node runs as it is (the repo has no TypeScript runner besides vitest, which cannot go first here).
node_modules/.bin/esbuild test/matter/prepare.ts --bundle --platform=node --format=esm --packages=external --log-level=warning \
  --outfile=.cache/matter/prepare.mjs || fail "could not bundle test/matter/prepare.ts."

export REPORT_SUITE=matter E2E_HOMEBRIDGE="$HOMEBRIDGE_VERSION"

# One Node's run, in its own network namespace; its exit status is the run's. Arguments: the Node major, then vitest's.
run_node() {
  NODE_MAJOR="$1"
  shift
  FAILING_MAJORS="$NODE_MAJOR"
  # Resolved outside: `npx -y node@N` downloads from the registry, which the namespace cannot reach.
  NODE_BIN="$(npx -y "node@$NODE_MAJOR" -e 'process.stdout.write(process.execPath)' 2>/dev/null)" || NODE_BIN=""
  [ -x "$NODE_BIN" ] || fail "could not get Node $NODE_MAJOR (npx -y node@$NODE_MAJOR)."
  HB_PREFIX="$("$NODE_BIN" .cache/matter/prepare.mjs | tail -n 1)" || HB_PREFIX=""
  [ -d "$HB_PREFIX/node_modules/homebridge" ] || fail "could not install Homebridge $HOMEBRIDGE_VERSION into .cache."
  export HB_PREFIX

  SMOKE_ARGS=""
  SMOKE_ARGS_FILE="test/matter/doors.test.ts"
  [ "$NODE_MAJOR" = "$FULL_MAJOR" ] || [ $# -gt 0 ] || SMOKE_ARGS="$SMOKE"
  echo "matter: Node $("$NODE_BIN" --version), Homebridge $HOMEBRIDGE_VERSION ($HB_PREFIX), in a private network namespace${SMOKE_ARGS:+, smoke: $SMOKE_ARGS}"
  # The smoke run's report counts every test it filtered out as skipped: a note beside it says why, for CI's closing line.
  if [ -n "${REPORT_DIR:-}" ]; then
    note="$REPORT_DIR/vitest-matter-homebridge-$HOMEBRIDGE_VERSION-node$NODE_MAJOR.note"
    if [ -n "$SMOKE_ARGS" ]; then
      mkdir -p "$REPORT_DIR"
      printf 'smoke subset on Node %s: only the tests of %s named by "%s" ran (the others are filtered out, counted as skipped); every Matter test ran on Node %s; MATTER_SMOKE="" runs them all\n' \
        "$NODE_MAJOR" "$SMOKE_ARGS_FILE" "$SMOKE_ARGS" "$FULL_MAJOR" >"$note"
    else
      rm -f "$note"
    fi
  fi
  # Inside: loopback for the simulator and the controller's first contact, a veth pair (va with a fixed ULA address, vb its
  # peer) for Matter's mDNS; `nodad` so the address is usable at once instead of after duplicate address detection.
  unshare --net -- /bin/sh -c '
    ip link set lo up &&
      ip link add va type veth peer name vb &&
      ip addr add fd78::1/64 dev va nodad &&
      ip link set va up &&
      ip link set vb up || { echo "matter: could not set up the veth pair in the network namespace" >&2; exit 1; }
    node="$1"
    shift
    exec "$node" node_modules/vitest/vitest.mjs run --project matter "$@"
  ' matter-netns "$NODE_BIN" "$@" ${SMOKE_ARGS:+"$SMOKE_ARGS_FILE"} ${SMOKE_ARGS:+-t} ${SMOKE_ARGS:+"$SMOKE_ARGS"}
}

# Each Node in a namespace of its own, side by side (nothing of one reaches the other). The later Nodes start once the file
# MATTER_OTHERS_AFTER names exists (test/run-all.sh: when the fast projects have ended, whose tests keep the cores to
# themselves); by hand, at once.
status_dir="$(mktemp -d)"
trap 'rm -rf "$status_dir"' EXIT
for major in $NODE_MAJORS; do
  (
    if [ "$major" != "$FULL_MAJOR" ] && [ -n "${MATTER_OTHERS_AFTER:-}" ]; then
      while [ ! -e "$MATTER_OTHERS_AFTER" ]; do sleep 1; done
    fi
    (run_node "$major" "$@")
    echo $? >"$status_dir/$major"
  ) 2>&1 | sed -u "s/^/[node $major] /" &
done
wait

. test/support/exit-codes.sh
# shellcheck disable=SC2086 # NODE_MAJORS is a list of words
exit_codes "$status_dir" "matter: Node" $NODE_MAJORS
