# Sourced by the scripts that run parts side by side (test/run-all.sh, test/matter/run.sh): each part wrote its exit code
# to a file named after it in one folder; this says each one on a line and returns non-zero when any failed or wrote none.
# Arguments: the folder, the words before each name ("test:"), then the names.
exit_codes() {
  codes_dir="$1"
  codes_label="$2"
  shift 2
  codes_status=0
  for codes_name in "$@"; do
    codes_code="$(cat "$codes_dir/$codes_name" 2>/dev/null || echo missing)"
    echo "$codes_label $codes_name: exit $codes_code"
    [ "$codes_code" = 0 ] || codes_status=1
  done
  return "$codes_status"
}
