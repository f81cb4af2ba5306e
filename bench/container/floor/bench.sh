#!/bin/bash
# bench.sh OUT_PREFIX [REPS] [SCENARIOS...]
# Targets measured interleaved in one run: disk (ext4 dir), tmpfs mount, and
# several ptfs FUSE mounts (each over its own replica dir on the same ext4).
# Rep 0 is warm-up; reps 1..REPS are kept. Output: OUT_PREFIX.tsv
#   (scenario target rep ms) and OUT_PREFIX.cnt (FUSE op counts, last rep).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${1:-$HERE/results/run}
REPS=${2:-5}
shift 2 2>/dev/null
SCEN=${*:-create stat rm mkdir find write64 read64 copy64 overwrite64 stat_cold find_cold read64_cold}
mkdir -p "$(dirname "$OUT")"
: > "$OUT.tsv"; : > "$OUT.cnt"

B=/tmp/cubicle-floor
# FUSE variants: name -> ptfs options
declare -A VOPT=(
  [fL1]="timeout=86400,writeback=1 -s"
  [fS1]="timeout=1,writeback=1 -s"
  [fN1]="timeout=86400,writeback=0 -s"
  [fP1]="timeout=86400,passthrough=1 -s"
  [fP1x]="timeout=86400,passthrough=1,noopendir=1,readdirplus=0 -s"
  [fP1o]="timeout=86400,passthrough=1,noopendir=1 -s"
  [fP1a]="timeout=86400,passthrough=1,noopendir=1,noatime -s"
  [fPc]="timeout=86400,passthrough=1,clone_fd,max_threads=4"
  [fL]="timeout=86400,writeback=1"
  [fS]="timeout=1,writeback=1"
  [fN]="timeout=86400,writeback=0"
  [fP]="timeout=86400,passthrough=1"
  [fLsp]="timeout=86400,writeback=1,splice=1"
)
FVARS=${FVARS:-"fL fS fN fP fL1 fLsp"}
TARGETS="disk tmpfs $FVARS"

setup_mounts() {
  mkdir -p $B/disk $B/tmpfs
  mountpoint -q $B/tmpfs || mount -t tmpfs -o size=4g tmpfs $B/tmpfs
  for v in $FVARS; do
    mkdir -p $B/rep-$v $B/$v
    if ! mountpoint -q $B/$v; then
      "$HERE/ptfs" $B/$v -o source=$B/rep-$v,counters=/dev/shm/cnt-$v,fsname=ptfs-$v,${VOPT[$v]}
      sleep 0.2
    fi
  done
  mkdir -p /dev/shm/benchsrc
  [ -f /dev/shm/benchsrc/src1 ] || head -c 64M /dev/urandom > /dev/shm/benchsrc/src1
  [ -f /dev/shm/benchsrc/src2 ] || head -c 64M /dev/urandom > /dev/shm/benchsrc/src2
}

SETUP_CREATE='i=0; while [ $i -lt 1000 ]; do printf "file %d\n" $i > f$i; i=$((i + 1)); done'
SETUP_MKDIR='awk '"'"'BEGIN { for (a = 0; a < 10; a++) { print "d" a; for (b = 0; b < 10; b++) { print "d" a "/" b; for (c = 0; c < 10; c++) print "d" a "/" b "/" c } } }'"'"' | xargs mkdir'
SETUP_WRITE='dd if=/dev/shm/benchsrc/src1 of=big bs=1M status=none'

# scenario -> "setup|timed|cold"
scen_def() {
  case $1 in
    create)   S=""; T="$SETUP_CREATE"; C=0 ;;
    stat)     S="$SETUP_CREATE"; T='i=0; while [ $i -lt 1000 ]; do [ -f f$i ]; i=$((i + 1)); done'; C=0 ;;
    rm)       S="$SETUP_CREATE"; T='rm -f -- f*'; C=0 ;;
    mkdir)    S=""; T="$SETUP_MKDIR"; C=0 ;;
    find)     S="$SETUP_MKDIR"; T='[ $(find . | wc -l) -eq 1111 ]'; C=0 ;;
    write64)  S=""; T="$SETUP_WRITE"; C=0 ;;
    read64)   S="$SETUP_WRITE"; T='dd if=big of=/dev/null bs=1M status=none'; C=0 ;;
    copy64)   S="$SETUP_WRITE"; T='cp big big2'; C=0 ;;
    overwrite64) S="$SETUP_WRITE"; T='dd if=/dev/shm/benchsrc/src2 of=big bs=1M conv=notrunc status=none'; C=0 ;;
    stat_cold) scen_def stat; C=1 ;;
    stat_again) scen_def stat; S="$S; $T"; C=0 ;;
    find_again) scen_def find; S="$S; $T"; C=0 ;;
    find_cold) scen_def find; C=1 ;;
    read64_cold) scen_def read64; C=1 ;;
  esac
}

snap() { od -An -tu8 -w8 -v /dev/shm/cnt-$1 2>/dev/null | tr -d ' '; }

setup_mounts
for t in $FVARS; do cat /sys/class/bdi/$(mountpoint -d $B/$t)/read_ahead_kb | sed "s/^/# $t read_ahead_kb=/" >> "$OUT.cnt"; done
n=0
for rep in $(seq 0 "$REPS"); do
  for s in $SCEN; do
    scen_def "$s"
    for t in $TARGETS; do
      n=$((n + 1))
      d=$B/$t/run-$n
      mkdir "$d"
      if [ -n "$S" ]; then (cd "$d" && bash -c "$S") || echo "setup failed $s $t" >&2; fi
      sync  # settle writeback from setup on all targets (not timed)
      [ "$C" = 1 ] && { echo 3 > /proc/sys/vm/drop_caches; }
      case $t in f*) snap $t > /tmp/bench-cnt-before;; esac
      ms=$(cd "$d" && bash -c 't0=$EPOCHREALTIME; '"$T"' || echo FAIL >&2; t1=$EPOCHREALTIME; echo "$t0 $t1"' | awk '{printf "%.2f", ($2-$1)*1000}')
      case $t in f*) snap $t > /tmp/bench-cnt-after
        if [ "$rep" = "$REPS" ]; then
          paste /dev/shm/cnt-$t.names /tmp/bench-cnt-before /tmp/bench-cnt-after | awk -v s=$s -v t=$t '$3-$2>0 {o=o" "$1"="$3-$2} END {print s"\t"t"\t"o}' >> "$OUT.cnt"
        fi;;
      esac
      printf '%s\t%s\t%s\t%s\n' "$s" "$t" "$rep" "$ms" >> "$OUT.tsv"
      rm -rf "$d"
    done
  done
done
echo done
