#!/usr/bin/env bash
# Paired benchmark of switchboard-cli (A) against the anchors in /work/shared/bench (B).
#   bench/run.sh [PAIRS]              default 7 counted pairs (or $PAIRS), after 1 warm-up pair
#   ONLY=seq,list10k bench/run.sh 3   only these scenarios (names below)
# Environment: SWITCHBOARD_CLI (default build/src/cli/switchboard-cli), SHARED_BENCH
# (default /work/shared/bench), OUT (log dir, default bench/results/<UTC timestamp>),
# RUN_TIMEOUT (seconds per run, default 300), KEEP_WORK=1 keeps the temp copy.
# Every run is `/usr/bin/time -f '%e %M' selfrss -- CMD` (selfrss: bench/lib/selfrss.c,
# the command's own peak RSS and ms wall). A and B alternate (AB, BA on odd pairs); the
# ratio is taken pair by pair and its median printed with the median of each side.
# Exit status: 0 when every command ran as expected (whether or not targets are met),
# 1 when a command failed or printed something unexpected, 2 on a set-up error.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
PAIRS=${1:-${PAIRS:-7}}
case $PAIRS in '' | *[!0-9]* | 0) echo "usage: bench/run.sh [PAIRS>=1]" >&2; exit 2 ;; esac
SHARED=${SHARED_BENCH:-/work/shared/bench}
CLI=${SWITCHBOARD_CLI:-$ROOT/build/src/cli/switchboard-cli}
EVERYTHING=$ROOT/node_modules/@modelcontextprotocol/server-everything/dist/index.js
RUN_TIMEOUT=${RUN_TIMEOUT:-300}
OUT=${OUT:-$ROOT/bench/results/$(date -u +%Y%m%dT%H%M%SZ)}
N=10000
TEXT=$(printf '%*s' 64 '' | tr ' ' x) # raw-pipe's default --text-bytes 64
ARGS_JSON="{\"text\":\"$TEXT\"}"

NH=3000 # calls per HTTP run
ALL_SCENARIOS=(seq c64 seq_sdk c64_sdk list10k tools10k list10k_sdk startup_everything
  http_seq http_c64_sdk http_seq_sdk http_seq_qnam http_seq_qf http_c64_qf probe_legacy)
if [ -n "${ONLY:-}" ]; then
  IFS=', ' read -r -a WANT <<<"$ONLY"
  for w in "${WANT[@]}"; do
    case " ${ALL_SCENARIOS[*]} " in *" $w "*) ;; *) echo "unknown scenario '$w' (have: ${ALL_SCENARIOS[*]})" >&2; exit 2 ;; esac
  done
else
  WANT=("${ALL_SCENARIOS[@]}")
fi
wanted() { case " ${WANT[*]} " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

for tool in node npm cc /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "needs $tool" >&2; exit 2; }
done
if [ ! -x "$CLI" ]; then
  echo "building switchboard-cli (nice -n 10)..." >&2
  (cd "$ROOT" && nice -n 10 cmake -S . -B build -G Ninja >/dev/null &&
    nice -n 10 cmake --build build -j2 --target switchboard-cli >/dev/null) || { echo "build failed" >&2; exit 2; }
fi
[ -x "$CLI" ] || { echo "no client at $CLI" >&2; exit 2; }
if wanted startup_everything && [ ! -f "$EVERYTHING" ]; then
  echo "server-everything missing at $EVERYTHING (run npm ci in $ROOT)" >&2; exit 2
fi

# --- set-up: a writable copy of the anchors, configs, an empty XDG_CONFIG_HOME --------
WORK=$(mktemp -d "${TMPDIR:-/tmp}/switchboard-bench.XXXXXX")
# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() { if [ -z "${KEEP_WORK:-}" ]; then rm -rf "$WORK"; else echo "kept $WORK" >&2; fi; }
trap cleanup EXIT
mkdir -p "$OUT" "$WORK/xdg" "$WORK/ws" "$WORK/cfg"
cp -r "$SHARED" "$WORK/bench"
chmod -R u+w "$WORK/bench"
rm -rf "$WORK/bench/anchors/node_modules" "$WORK/bench/results" "$WORK/bench/anchors/raw-pipe"
ANCH=$WORK/bench/anchors
SERVER=$WORK/bench/server/echo-server.mjs
(cd "$ANCH" && npm ci --no-audit --no-fund >"$OUT/setup.log" 2>&1) || { echo "npm ci failed, see $OUT/setup.log" >&2; exit 2; }
cc -O2 -o "$ANCH/raw-pipe" "$ANCH/raw-pipe.c"
SELFRSS=$WORK/selfrss
cc -O2 -o "$SELFRSS" "$ROOT/bench/lib/selfrss.c"

cat >"$WORK/cfg/echo1.json" <<EOF
{"mcpServers": {"echo": {"command": "node", "args": ["$SERVER", "--tools", "1"]}}}
EOF
cat >"$WORK/cfg/echo10k.json" <<EOF
{"mcpServers": {"echo": {"command": "node", "args": ["$SERVER", "--tools", "10000"]}}}
EOF
# ${TOKEN} stays literal here: the client expands it, and every run has TOKEN unset.
cat >"$WORK/cfg/everything.json" <<EOF
{"mcpServers": {
  "everything": {"command": "node", "args": ["$EVERYTHING", "stdio"]},
  "missing": {"command": "switchboard-bench-no-such-command", "args": []},
  "needs-token": {"command": "node", "args": ["$SERVER"], "env": {"API_TOKEN": "\${TOKEN}"}}
}}
EOF
# The HTTP scenarios share one echo server in its Streamable HTTP mode (--http PORT).
HTTP_PORT=${HTTP_PORT:-18931}
HTTP_URL=http://127.0.0.1:$HTTP_PORT/mcp
cat >"$WORK/cfg/echohttp.json" <<EOF
{"mcpServers": {"echo": {"url": "$HTTP_URL"}}}
EOF
QNAMFLOOR=${QNAMFLOOR:-$(dirname "$CLI")/../../bench/qnamfloor/bench_qnamfloor}
if wanted http_seq_qnam && [ ! -x "$QNAMFLOOR" ]; then
  echo "no bench_qnamfloor at $QNAMFLOOR (cmake --build build --target bench_qnamfloor)" >&2; exit 2
fi
# The QNAM floor of ../shared/bench (anchors/qnam-floor: QNetworkAccessManager and nothing
# else, sequential or C in flight), built here as its README says.
if wanted http_seq_qf || wanted http_c64_qf; then
  (cmake -S "$ANCH/qnam-floor" -B "$WORK/qnam-floor" -G Ninja -DCMAKE_BUILD_TYPE=Release &&
    cmake --build "$WORK/qnam-floor") >>"$OUT/setup.log" 2>&1 ||
    { echo "building anchors/qnam-floor failed, see $OUT/setup.log" >&2; exit 2; }
fi
if wanted http_seq || wanted http_c64_sdk || wanted http_seq_sdk || wanted http_seq_qnam ||
  wanted http_seq_qf || wanted http_c64_qf; then
  node "$SERVER" --http "$HTTP_PORT" >"$OUT/echo-http.log" 2>&1 &
  HTTP_PID=$!
  # shellcheck disable=SC2317  # called by the EXIT trap
  cleanup() {
    kill "$HTTP_PID" 2>/dev/null || true
    if [ -z "${KEEP_WORK:-}" ]; then rm -rf "$WORK"; else echo "kept $WORK" >&2; fi
  }
  for _ in $(seq 1 50); do
    (exec 3<>"/dev/tcp/127.0.0.1/$HTTP_PORT") 2>/dev/null && break
    sleep 0.1
  done
fi
cp "$WORK"/cfg/*.json "$OUT/"

{
  echo "date: $(date -u +%FT%TZ)  host: $(uname -n)  kernel: $(uname -r)  cpus: $(nproc)"
  echo "load: $(cut -d' ' -f1-3 /proc/loadavg)  node: $(node --version)  pairs: $PAIRS"
  echo "client: $CLI ($(stat -c %y "$CLI" 2>/dev/null | cut -d. -f1))"
  # read-only git: GIT_OPTIONAL_LOCKS=0 keeps status from refreshing the index
  echo "git: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')" \
    "$(GIT_OPTIONAL_LOCKS=0 git -C "$ROOT" status --porcelain -- src 2>/dev/null | wc -l) changed/new files under src/"
} >"$OUT/machine.txt"

# --- running -----------------------------------------------------------------------
SB=("$CLI" --workspace "$WORK/ws" --config)
FAILED=0

# run_one SCENARIO SIDE PAIR EXPECTED_RC DIR CMD...  -> appends a line to SCENARIO.tsv:
#   pair side wall_s(selfrss) self_hwm_kib time_e time_M_kib inproc rc
run_one() {
  local sc=$1 side=$2 pair=$3 want_rc=$4 dir=$5
  shift 5
  local log=$OUT/$sc.$side.$pair.log tf=$WORK/time.out sf=$WORK/selfrss.out rc=0
  rm -f "$tf" "$sf"
  echo "# ${*@Q}" >"$log"
  (cd "$dir" && env -u TOKEN XDG_CONFIG_HOME="$WORK/xdg" \
    /usr/bin/time -f '%e %M' -o "$tf" "$SELFRSS" -o "$sf" -t "$RUN_TIMEOUT" -- "$@" </dev/null >>"$log" 2>&1) || rc=$?
  local e m w h inproc
  read -r e m <"$tf" 2>/dev/null || { e=-; m=-; }
  case $e in Command*) read -r e m < <(tail -n1 "$tf") ;; esac # "Command exited with non-zero status N"
  w=$(grep -o 'wall_s=[0-9.]*' "$sf" 2>/dev/null | cut -d= -f2) || w=
  h=$(grep -o 'self_hwm_kib=[0-9-]*' "$sf" 2>/dev/null | cut -d= -f2) || h=-
  { echo "# time: $(tr '\n' ' ' <"$tf" 2>/dev/null)"; echo "# selfrss: $(cat "$sf" 2>/dev/null)"; } >>"$log"
  inproc=-
  case $sc in
    seq* | c64*) inproc=$(grep -o 'calls_per_s=[0-9.]*' "$log" | tail -n1 | cut -d= -f2) || true
      grep -q "^calls=$N " "$log" || inproc= ;;
    http_*) inproc=$(grep -o 'calls_per_s=[0-9.]*' "$log" | tail -n1 | cut -d= -f2) || true
      grep -q "^calls=$NH " "$log" || inproc= ;;
    list10k* | tools10k) if [ "$side" = A ]; then
        if [ "$sc" = tools10k ]; then [ "$(grep -c '^mcp__echo__' "$log")" = 10000 ] || inproc=
        else grep -Eq '^echo +connected +10000( |$)' "$log" || inproc=; fi; else
      inproc=$(grep -Eo '^(tools=10000 pages=[0-9]+|list_bytes_read=[0-9]+) seconds=[0-9.]+' "$log" | sed 's/.*seconds=//') || inproc=; fi ;;
    probe_legacy) grep -Eq '^echo +connected' "$log" || inproc= ;;
    startup_everything) if [ "$side" = A ]; then grep -Eq '^everything +connected' "$log" || inproc=; else
      inproc=$(grep -o '^tools=[0-9]* seconds=[0-9.]*' "$log" | sed 's/.*seconds=//') || inproc=; fi ;;
  esac
  if [ "$rc" != "$want_rc" ] || [ -z "$inproc" ] || [ -z "$w" ]; then
    echo "FAILED: $sc side $side pair $pair: exit $rc (want $want_rc) or unexpected output; see $log" >&2
    tail -n 5 "$log" | sed 's/^/    /' >&2
    return 1
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$pair" "$side" "$w" "$h" "$e" "$m" "$inproc" "$rc" >>"$OUT/$sc.tsv"
}

# scenario NAME  then arrays A_CMD/B_CMD, A_DIR/B_DIR, A_RC set by the caller
run_scenario() {
  local sc=$1 p
  : >"$OUT/$sc.tsv"
  echo "== $sc: A = ${A_CMD[*]@Q}" >&2
  echo "   B = ${B_CMD[*]@Q}" >&2
  for p in $(seq 0 "$PAIRS"); do # pair 0 = warm-up, logged but not counted
    if [ $((p % 2)) -eq 1 ]; then
      run_one "$sc" B "$p" 0 "$B_DIR" "${B_CMD[@]}" || return 1
      run_one "$sc" A "$p" "$A_RC" "$A_DIR" "${A_CMD[@]}" || return 1
    else
      run_one "$sc" A "$p" "$A_RC" "$A_DIR" "${A_CMD[@]}" || return 1
      run_one "$sc" B "$p" 0 "$B_DIR" "${B_CMD[@]}" || return 1
    fi
  done
}

# summarize SCENARIO ROW_NAME LABEL COLUMN MODE TARGET_OP TARGET [SCALE] -> one table row
#   COLUMN: tsv column (3 wall_s, 4 self_hwm_kib, 7 in-process figure); SCALE divides it
#   MODE ratio: median over pairs of A/B;  diff: median(A) - median(B)
#   TARGET_OP >=, <=, <  or - (no target: "info")
summarize() {
  local sc=$1 name=$2 label=$3 col=$4 mode=$5 op=$6 target=$7 scale=${8:-1}
  awk -F'\t' -v col="$col" -v mode="$mode" -v op="$op" -v target="$target" -v scale="$scale" \
    -v name="$name" -v label="$label" '
    function median(arr, n,   i, j, t) {
      for (i = 2; i <= n; i++) { t = arr[i]; for (j = i - 1; j >= 1 && arr[j] > t; j--) arr[j + 1] = arr[j]; arr[j + 1] = t }
      return n == 0 ? "nan" : (n % 2 ? arr[(n + 1) / 2] : (arr[n / 2] + arr[n / 2 + 1]) / 2)
    }
    function fmt(v) { return v == "nan" ? "-" : (v >= 1000 ? sprintf("%.0f", v) : (v >= 10 ? sprintf("%.1f", v) : sprintf("%.3f", v))) }
    $1 > 0 { v[$1, $2] = $col / scale; pairs[$1] = 1 }
    END {
      na = nb = nr = 0
      for (p in pairs) {
        if ((p, "A") in v) a[++na] = v[p, "A"]
        if ((p, "B") in v) b[++nb] = v[p, "B"]
        if ((p, "A") in v && (p, "B") in v && v[p, "B"] > 0) r[++nr] = v[p, "A"] / v[p, "B"]
      }
      ma = median(a, na); mb = median(b, nb)
      if (mode == "diff") { res = (ma == "nan" || mb == "nan") ? "nan" : ma - mb; rs = res == "nan" ? "-" : sprintf("A-B=%.3f", res) }
      else {
        lo = hi = ""
        for (i = 1; i <= nr; i++) { if (lo == "" || r[i] < lo) lo = r[i]; if (hi == "" || r[i] > hi) hi = r[i] }
        res = median(r, nr); rs = res == "nan" ? "-" : sprintf("%.3f", res)
        if (nr > 1) range = sprintf("%.3f-%.3f", lo, hi); else range = "-"
      }
      if (op == "-") { verdict = "info"; ts = "-" }
      else {
        ts = op target
        if (res == "nan") verdict = "ERROR"
        else if (op == ">=") verdict = res >= target ? "PASS" : "FAIL"
        else if (op == "<=") verdict = res <= target ? "PASS" : "FAIL"
        else verdict = res < target ? "PASS" : "FAIL"
      }
      if (mode == "diff") range = "-"
      printf "%-20s %5d  %-12s %10s %10s %11s %13s %8s  %s\n", name, nr, label, fmt(ma), fmt(mb), rs, range, ts, verdict
    }' "$OUT/$sc.tsv"
}

# details NAME -> per side: median selfrss wall, %e, %M (MiB), self peak (MiB), in-process
details() {
  local sc=$1 side
  for side in A B; do
    awk -F'\t' -v side="$side" -v sc="$sc" '
      function median(arr, n,   i, j, t) {
        for (i = 2; i <= n; i++) { t = arr[i]; for (j = i - 1; j >= 1 && arr[j] > t; j--) arr[j + 1] = arr[j]; arr[j + 1] = t }
        return n == 0 ? "-" : (n % 2 ? arr[(n + 1) / 2] : (arr[n / 2] + arr[n / 2 + 1]) / 2)
      }
      $1 > 0 && $2 == side { n++; w[n] = $3; h[n] = $4 / 1024; e[n] = $5; m[n] = $6 / 1024; if ($7 != "-") x[++nx] = $7 }
      END { if (n) printf "%-20s %s %9.3f %7.2f %10.1f %10.1f %12s\n", sc, side, median(w, n), median(e, n), median(m, n), median(h, n), median(x, nx) }' "$OUT/$sc.tsv"
  done
}

ROWS=$WORK/rows.txt
DETAILS=$WORK/details.txt
: >"$ROWS"
: >"$DETAILS"
error_row() { printf '%-20s %5s  %-12s %10s %10s %11s %13s %8s  %s\n' "$1" - - - - - - - ERROR >>"$ROWS"; FAILED=1; }

for sc in "${WANT[@]}"; do
  A_DIR=$WORK/ws B_DIR=$ANCH A_RC=0
  case $sc in
    seq) A_CMD=("${SB[@]}" "$WORK/cfg/echo1.json" call echo echo "$ARGS_JSON" --repeat "$N")
      B_CMD=(./raw-pipe --calls "$N") ;;
    c64) A_CMD=("${SB[@]}" "$WORK/cfg/echo1.json" call echo echo "$ARGS_JSON" --repeat "$N" --concurrency 64)
      B_CMD=(./raw-pipe --calls "$N" --window 64) ;;
    seq_sdk) A_CMD=("${SB[@]}" "$WORK/cfg/echo1.json" call echo echo "$ARGS_JSON" --repeat "$N")
      B_CMD=(node ts-sdk-client.mjs --calls "$N") ;;
    c64_sdk) A_CMD=("${SB[@]}" "$WORK/cfg/echo1.json" call echo echo "$ARGS_JSON" --repeat "$N" --concurrency 64)
      B_CMD=(node ts-sdk-client.mjs --calls "$N" --concurrency 64) ;;
    list10k) A_CMD=("${SB[@]}" "$WORK/cfg/echo10k.json" servers)
      B_CMD=(./raw-pipe --list -- node ../server/echo-server.mjs --tools 10000) ;;
    tools10k) A_CMD=("${SB[@]}" "$WORK/cfg/echo10k.json" tools)
      B_CMD=(./raw-pipe --list -- node ../server/echo-server.mjs --tools 10000) ;;
    list10k_sdk) A_CMD=("${SB[@]}" "$WORK/cfg/echo10k.json" servers)
      B_CMD=(node ts-sdk-client.mjs --list --tools 10000) ;;
    startup_everything) A_CMD=("${SB[@]}" "$WORK/cfg/everything.json" servers) A_RC=3
      B_CMD=(node "$ROOT/bench/lib/everything-list.mjs" "$EVERYTHING" stdio) ;;
    http_seq) A_CMD=("${SB[@]}" "$WORK/cfg/echohttp.json" call echo echo "$ARGS_JSON" --repeat "$NH")
      B_CMD=(node raw-http.mjs --http "$HTTP_URL" --calls "$NH") ;;
    http_c64_sdk) A_CMD=("${SB[@]}" "$WORK/cfg/echohttp.json" call echo echo "$ARGS_JSON" --repeat "$NH" --concurrency 64)
      B_CMD=(node ts-sdk-client.mjs --http "$HTTP_URL" --calls "$NH" --concurrency 64) ;;
    http_seq_sdk) A_CMD=("${SB[@]}" "$WORK/cfg/echohttp.json" call echo echo "$ARGS_JSON" --repeat "$NH")
      B_CMD=(node ts-sdk-client.mjs --http "$HTTP_URL" --calls "$NH") ;;
    # The ceiling under http_seq: QNetworkAccessManager alone (no MCP client) against the
    # same node:http floor.
    http_seq_qnam) A_CMD=("$QNAMFLOOR" --http "$HTTP_URL" --calls "$NH")
      B_CMD=(node raw-http.mjs --http "$HTTP_URL" --calls "$NH") ;;
    # Against the QNAM floor: what our MCP client adds to the HTTP stack it stands on.
    http_seq_qf) A_CMD=("${SB[@]}" "$WORK/cfg/echohttp.json" call echo echo "$ARGS_JSON" --repeat "$NH")
      B_CMD=("$WORK/qnam-floor/qnam-floor" --http "$HTTP_URL" --calls "$NH") ;;
    http_c64_qf) A_CMD=("${SB[@]}" "$WORK/cfg/echohttp.json" call echo echo "$ARGS_JSON" --repeat "$NH" --concurrency 64)
      B_CMD=("$WORK/qnam-floor/qnam-floor" --http "$HTTP_URL" --calls "$NH" --concurrency 64) ;;
    # The era probe's cost on a legacy server's start: A has no era cache (every run asks
    # server/discover first, as the first start of a server does), B has it (initialize at
    # once, as before the probe existed). Both through the same sh.
    probe_legacy) B_DIR=$WORK/ws
      A_CMD=(sh -c 'rm -rf "$0"; XDG_DATA_HOME=$0 exec "$@"' "$WORK/data-fresh" "${SB[@]}" "$WORK/cfg/echo1.json" servers)
      B_CMD=(sh -c 'XDG_DATA_HOME=$0 exec "$@"' "$WORK/data-kept" "${SB[@]}" "$WORK/cfg/echo1.json" servers) ;;
  esac
  if ! run_scenario "$sc"; then error_row "$sc"; continue; fi
  case $sc in
    seq | c64 | seq_sdk | c64_sdk | http_*) # in-process calls/s, higher is better
      # Issue 31's goals: seq and http_seq_qf hold 0.9, c64 0.8, http_c64_qf 0.95.
      case $sc in seq | http_seq_qf) op=">=" t=0.9 ;; http_seq) op=">=" t=0.8 ;; c64) op=">=" t=0.8 ;;
        http_c64_qf) op=">=" t=0.95 ;; http_c64_sdk) op=">=" t=2 ;; *) op=- t=- ;; esac
      summarize "$sc" "$sc" calls/s 7 ratio "$op" "$t"
      summarize "$sc" "$sc.rss" "self MiB" 4 ratio - - 1024 ;;
    list10k | tools10k) summarize "$sc" "$sc" "wall s" 3 ratio "<=" 1.2
      summarize "$sc" "$sc.rss" "self MiB" 4 ratio - - 1024 ;;
    list10k_sdk) summarize list10k_sdk list10k_sdk "wall s" 3 ratio - -
      summarize list10k_sdk list10k_sdk.rss "self MiB" 4 ratio "<" 1 1024 ;;
    startup_everything) summarize startup_everything startup_everything "wall s" 3 diff "<" 2 ;;
    probe_legacy) summarize probe_legacy probe_legacy "wall s" 3 diff "<" 0.05 ;;
  esac >>"$ROWS"
  details "$sc" >>"$DETAILS"
done

{
  cat "$OUT/machine.txt"
  echo
  printf '%-20s %5s  %-12s %10s %10s %11s %13s %8s  %s\n' scenario pairs metric median_A median_B ratio min-max target result
  cat "$ROWS"
  echo
  echo "A = switchboard-cli, B = anchor. ratio = median over pairs of (A/B) taken pair by pair, min-max"
  echo "the smallest and largest of those per-pair ratios;"
  echo "startup_everything shows median(A) - median(B) in seconds. *.rss rows: each process's own peak."
  echo
  printf '%-20s %s %9s %7s %10s %10s %12s\n' scenario side wall_s time_e tree_MiB self_MiB in_process
  cat "$DETAILS"
  echo
  echo "wall_s: fork to exit (selfrss, ms); time_e/tree_MiB: /usr/bin/time %e/%M (%M = largest process"
  echo "of the waited tree, i.e. usually the node server); self_MiB: the client process alone (VmHWM at"
  echo "exit); in_process: calls/s the client printed (calls), 'seconds' for everything-list, else -."
} | tee "$OUT/table.txt"
echo "logs: $OUT" >&2
exit "$FAILED"
