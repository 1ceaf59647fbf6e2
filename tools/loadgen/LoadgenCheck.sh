#!/bin/bash
# CTest tools.loadgen: semis-loadgen against a throwaway server (issue 27.15). Usage:
#   LoadgenCheck.sh SEMIS LOADGEN
# --help prints the usage and exits 0 at once (it used to run 20 s against port 8080 and exit 1);
# friend and AI games end with no error of any code and no acknowledged move lost; bad options
# are status 2.
set -u
semis=$1
loadgen=$2
dir=$(mktemp -d)
server=
cleanup() {
  [[ -n $server ]] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
  rm -rf "$dir"
}
trap cleanup EXIT
fail() {
  echo "FAIL: $*"
  exit 1
}

out=$(timeout 10 "$loadgen" --help) || fail "--help: status $?"
[[ $out == usage:* ]] || fail "--help printed: $out"
out=$(timeout 10 "$loadgen" --games 3 -h) || fail "-h among other options: status $?"
[[ $out == usage:* ]] || fail "-h printed: $out"

"$semis" serve --port 0 --db "$dir/semis.db" --ai greedy >"$dir/log" 2>&1 &
server=$!
port=
for _ in $(seq 100); do
  port=$(grep -o '"port":[0-9]*' "$dir/log" | head -1 | cut -d: -f2)
  [[ -n $port ]] && break
  sleep 0.1
done
[[ -n $port ]] || fail "the server did not start: $(cat "$dir/log")"

# Each client moves at most about 7 times a second: under the server's rate limit, so any error is
# a real one (a move before the friend's seat was taken was answered not_your_turn).
for mode in "" "--ai easy"; do
  out=$(timeout 60 "$loadgen" --port "$port" --games 6 --seconds 3 --think-ms 150 --sources 6 $mode 2>&1)
  rc=$?
  echo "$out"
  [[ $rc == 0 ]] || fail "loadgen $mode: status $rc"
  grep -q "errors=0 lost_moves=0 connect_failures=0" <<<"$out" || fail "loadgen $mode: errors"
  grep -q "^errors_by_code none$" <<<"$out" || fail "loadgen $mode: no errors_by_code line"
  grep -Eq "moves=[1-9]" <<<"$out" || fail "loadgen $mode: no move measured"
done

for bad in "--games x" "--games" "--port 70000" "--nonsense 1" "--seconds 0"; do
  timeout 10 "$loadgen" $bad >/dev/null 2>&1
  rc=$?
  [[ $rc == 2 ]] || fail "'$bad': status $rc, not 2"
done
echo "ok"
