/** Control flow and tracing: loops, case, functions, break/continue, subshells, set -e/-x, traps. */
import { cases, sh } from "../sh.ts";

export const control = cases(
  "control",
  sh`
## bash-c-own-attributes
bash -c 'readonly x=1; declare -A m=([k]=v)'; x=2; m=plain; echo "x=$x m=$m"
## for-list
for x in a b c; do echo $x; done
## for-positional
set -- "a b" c; for arg; do echo "[$arg]"; done
## for-c-style
for ((i=0; i<3; i++)); do echo $i; done
## while-read
printf 'l1\nl2\n' | while read -r line; do echo "got $line"; done
## while-read-no-newline
printf 'a\nb' | while IFS= read -r l || [[ -n $l ]]; do echo "[$l]"; done
## until
n=0; until ((n >= 3)); do echo $n; ((n++)); done
## break-continue
for i in 1 2 3 4 5; do ((i == 2)) && continue; ((i == 4)) && break; echo $i; done
## break-n
for i in 1 2; do for j in a b; do [[ $j == b ]] && break 2; echo $i$j; done; done; echo out
## continue-n
for i in 1 2; do for j in a b; do [[ $j == a ]] && continue 2; echo $i$j; done; done; echo out
## continue-in-subshell
for i in 1 2 3; do (continue; echo never); echo "after $i"; done
## break-in-subshell
for i in 1 2; do (break); echo "loop $i"; done
## case-basic
for w in apple Banana 42 x.txt; do case $w in a*) echo "a-word $w";; [A-Z]*) echo "cap $w";; [0-9]*) echo "num $w";; *.txt) echo "text $w";; esac; done
## case-alternatives
for c in start stop other; do case $c in start|begin) echo go;; stop|end) echo halt;; *) echo "unknown $c";; esac; done
## case-fallthrough
case a in a) echo one;& b) echo two;; c) echo three;; esac
## case-continue-matching
case ab in a*) echo first;;& *b) echo second;; *) echo third;; esac
## case-quoted-pattern
x='*'; case hello in "$x") echo literal;; *) echo glob;; esac
## case-bracket-quoted
line='[section]'; case $line in "["*"]") echo header;; *) echo other;; esac
## case-empty
case "" in "") echo empty;; *) echo nonempty;; esac
## function-return
f() { return 7; }; f; echo $?
## function-output-capture
f() { echo "in f: $1"; }; r=$(f x); echo "[$r]"
## function-recursion
fact() { (($1 <= 1)) && { echo 1; return; }; echo $(( $1 * $(fact $(($1 - 1))) )); }; fact 10
## function-keyword
function g { echo "g $#"; }; g a b
## function-local-var-leak
f() { v=leak; local w=kept; }; f; echo "[$v] [$w]"
## function-args-shift
f() { while (($#)); do echo "arg $1"; shift; done; }; f x "y z"
## function-redirect-body
f() { echo to-stderr >&2; echo to-stdout; }; f 2>/dev/null
## subshell-isolation
x=1; (x=2; echo "in $x"); echo "out $x"
## subshell-exit
(exit 3); echo $?
## group-command
{ echo a; echo b; } | wc -l
## and-or-chain
true && echo yes || echo no; false && echo yes || echo no
## negation
! false && echo negated; ! true; echo $?
## set-e-stops
set -e; echo before; false; echo after
## set-e-in-condition
set -e; if false; then :; fi; false || true; echo survived
## set-e-in-function-and
set -e; f() { false; echo inside; }; f || echo failed; echo end
## pipefail
set -o pipefail; false | true; echo $?; set +o pipefail; false | true; echo $?
## pipestatus
true | false | true; echo "\${PIPESTATUS[@]}"
## set-x-trace
set -x; echo hi; x=1; set +x; echo done
## set-x-trace-to-file
set -x; echo hi 2>trace.txt; set +x; echo "file: $(cat trace.txt)"
## set-x-with-redirect-stdout
set -x; echo captured > out.txt; set +x; cat out.txt
## pipe-stderr
{ echo out; echo err >&2; } |& cat
## pipe-stderr-order
f() { echo one; echo two >&2; echo three; }; f |& cat
## trap-exit
trap 'echo cleanup' EXIT; echo main
## trap-err
trap 'echo caught' ERR; false; echo next
## return-from-sourced-like
f() { for i in 1 2 3; do [[ $i == 2 ]] && return 5; echo $i; done; }; f; echo $?
## exit-in-function
f() { echo inside; exit 4; }; f; echo never
## exit-status-last
false; true; echo $?
## colon-noop
: this is ignored; echo $?
## eval
cmd='echo evaluated $((1+2))'; eval "$cmd"
## eval-assignment
eval "x=5; y=\$((x*2))"; echo $y
## command-builtin
command echo via-command; type -t echo
## getopts
f() { local OPTIND o; while getopts "ab:" o; do case $o in a) echo A;; b) echo "B=$OPTARG";; esac; done; shift $((OPTIND-1)); echo "rest $*"; }; f -a -b val x y
## select-like-menu-loop
opts=(alpha beta); i=1; for o in "\${opts[@]}"; do echo "$i) $o"; ((i++)); done
## nested-loops-with-labels
for i in 1 2 3; do for j in 1 2 3; do ((j > i)) && continue 2; printf '%d%d ' $i $j; done; done; echo
## while-with-counter-and-break
i=0; while true; do ((++i > 4)) && break; done; echo $i
## loop-over-lines-ifs
data=$'a b\nc d'; while IFS= read -r line; do echo "<$line>"; done <<< "$data"
## loop-output-redirect
for i in 1 2 3; do echo $i; done > nums.txt; wc -l < nums.txt
## if-elif-else
for n in 5 15 25; do if ((n < 10)); then echo small; elif ((n < 20)); then echo medium; else echo large; fi; done
## wait-background
(echo bg-job) & wait; echo all-done
## time-keyword-status
true; echo "status $?"
## trap-exit-keeps-exit-status
trap 'echo "bye $?"' EXIT; echo start; exit 3
## trap-err-outside-conditions
trap 'echo "err $?"' ERR; if false; then :; fi; false || true; ! false; false; echo end
## trap-print-and-reset
trap 'echo x' EXIT; trap -p EXIT; trap - EXIT; echo done
## for-positional-in-function
f() { for a; do echo "<$a>"; done; }; f "one two" three
## case-escaped-bracket
case '[x]' in \[*\]) echo bracketed;; *) echo plain;; esac
## loop-status-after-break
while :; do false; break; done; echo "status $?"
## unbound-in-subshell
set -u; (echo "$nope") 2>&1; echo "status $?"
## command-from-variable
cmd="echo hi"; $cmd; x="printf %s-"; $x a b; echo
## command-from-arguments
set -- echo "x  y"; "$@"; run() { "$@"; }; run printf "%s|" a "b c"; echo
## command-from-substitution
n=$(echo echo); $n from-substitution; e=; $e echo empty-name
## command-from-array
cmd=(printf '%s\n' "one two" three); "\${cmd[@]}"
## background-status-and-pid
echo "[$!]"; false & echo "bg status $?"; wait $!; echo "wait status $?"
## background-wait-each-pid
for i in 1 2 3; do ( exit $i ) & pids+=($!); done; fails=0; for p in "\${pids[@]}"; do wait $p || ((fails++)); done; echo "fails=$fails"
## background-job-exit-and-errexit
set -e; (false; echo never) & wait $! || echo "job failed $?"; exit 5 & wait $!; echo "exit job $?"
## stderr-order-group-to-pipe
{ echo a; echo b >&2; echo c; } 2>&1 | cat; g() { echo x; echo y >&2; echo z; }; g 2>&1 | tr a-z A-Z
## stderr-order-function-to-file
h() { echo 1; echo 2 >&2; echo 3; }; h > out.txt 2>&1; cat out.txt; h 2>/dev/null
## stderr-order-loop
for i in 1 2; do echo o$i; echo e$i >&2; done 2>&1 | cat
## stderr-order-build-log
build() { echo "compiling"; echo "warning: unused" >&2; echo "linking"; echo "error: missing symbol" >&2; return 1; }; build 2>&1 | tee build.log | grep -c .; cat build.log
`,
);
