#!/bin/bash
# npm-bench.sh OUT_PREFIX [REPS]  -- full npm install, interleaved targets, rep 0 = warm-up
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$(realpath -m "$1"); REPS=${2:-3}
ROOT=$(cd "$HERE/../../.." && pwd)
export PATH=$ROOT/node_modules/node/bin:$PATH npm_config_cache=/tmp/floor-npm-cache npm_config_update_notifier=false
PROJ=$ROOT/bench/container/project
B=/tmp/floor-npm
declare -A VOPT=(
  [fP1o]="timeout=86400,passthrough=1,noopendir=1 -s"
  [fL1]="timeout=86400,writeback=1 -s"
  [fN1]="timeout=86400,writeback=0 -s"
)
FVARS="fP1o fL1 fN1"
TARGETS="disk tmpfs $FVARS"
: > "$OUT.tsv"; : > "$OUT.cnt"
mkdir -p $B/disk $B/tmpfs
mountpoint -q $B/tmpfs || mount -t tmpfs -o size=4g tmpfs $B/tmpfs
for v in $FVARS; do
  mkdir -p $B/rep-$v $B/$v
  mountpoint -q $B/$v || { "$HERE/ptfs" $B/$v -o source=$B/rep-$v,counters=/dev/shm/floor-npm-cnt-$v,fsname=ptfs-$v,${VOPT[$v]}; sleep 0.2; }
done
snap() { od -An -tu8 -w8 -v /dev/shm/floor-npm-cnt-$1 | tr -d ' '; }
n=0
for rep in $(seq 0 "$REPS"); do
  for t in $TARGETS; do
    n=$((n + 1)); d=$B/$t/run-$n
    mkdir "$d"; cp $PROJ/package.json $PROJ/package-lock.json "$d"/
    sync
    case $t in f*) snap $t > /tmp/floor-npm/cnt-before;; esac
    cd "$d"
    t0=$EPOCHREALTIME
    npm install --offline --no-audit --no-fund --loglevel=error >/tmp/floor-npm/npm-out 2>&1; rc=$?
    t1=$EPOCHREALTIME
    ok=ok; { [ $rc = 0 ] && [ -x node_modules/.bin/vite ] && [ -f node_modules/typescript/package.json ]; } || { ok=FAIL; cat /tmp/floor-npm/npm-out >&2; }
    nf=$(find node_modules | wc -l)
    cd /
    case $t in f*) snap $t > /tmp/floor-npm/cnt-after
      paste /dev/shm/floor-npm-cnt-$t.names /tmp/floor-npm/cnt-before /tmp/floor-npm/cnt-after | awk -v r=$rep -v t=$t '$3-$2>0 {o=o" "$1"="$3-$2} END {print r"\t"t"\t"o}' >> "$OUT.cnt";;
    esac
    s=$(awk -v a=$t0 -v b=$t1 'BEGIN{printf "%.3f", b-a}')
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$t" "$rep" "$s" "$ok" "$nf" "$(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$OUT.tsv"
    rm -rf "$d"
  done
done
echo done
