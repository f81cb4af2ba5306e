/** Corpus scripts: subshells, exits (scripts.ts lists every group in order). */
import { type CorpusScript, sh } from "../sh.ts";

export const subshells: CorpusScript[] = [
  {
    name: "subshell-isolation",
    files: { "sub/inside.txt": "" },
    script: sh`
x=1
(x=2; echo "inner x=$x")
echo "outer x=$x"
(cd sub && ls)
ls
(export LEAK=yes)
echo "LEAK=\${LEAK:-unset}"
`,
  },
  {
    name: "cmdsub-forms",
    files: { a: "", b: "", c: "" },
    script: sh`
echo "files: $(ls | wc -l)"
echo "backticks: \`echo old style\`"
x=$(printf 'a\n\n\n')
echo "[$x]"
y="$(echo first; echo second)"
echo "$y"
n=$(( $(echo 6) * $(echo 7) ))
echo "n=$n"
`,
  },
  {
    name: "subshell-exit-codes",
    script: sh`
(exit 7)
echo "subshell: $?"
( false ) || echo "recovered"
out=$(echo hi; exit 3)
echo "out=$out status=$?"
if (exit 0); then echo "zero is success"; fi
`,
  },
  {
    name: "process-substitution",
    files: { "a.txt": "cherry\napple\nbanana\n", "b.txt": "banana\napple\ndate\n" },
    script: sh`
diff <(sort a.txt) <(sort b.txt)
echo "diff exit: $?"
while read -r line; do echo "common: $line"; done < <(comm -12 <(sort a.txt) <(sort b.txt))
`,
  },
  {
    name: "group-commands",
    script: sh`
{ echo a; echo b; } > grp.txt
{ echo c; } >> grp.txt
cat grp.txt
{ echo x; echo y; echo z; } | wc -l
[ -f grp.txt ] && { echo "grouped then"; echo "two commands"; }
`,
  },
  {
    name: "background-wait",
    script: sh`
{ echo "from background" > bg.txt; } &
wait
cat bg.txt
(echo "subshell job" > job.txt) &
wait
cat job.txt
`,
  },
];

export const exits: CorpusScript[] = [
  {
    name: "exit-explicit",
    script: sh`
echo before
exit 3
echo after
`,
  },
  {
    name: "exit-status-values",
    script: sh`
true; echo "true: $?"
false; echo "false: $?"
! true; echo "! true: $?"
grep -q x <<< "abc"; echo "grep no match: $?"
test 1 -eq 2; echo "test: $?"
(exit 255); echo "255: $?"
`,
  },
  {
    name: "set-e-stops",
    script: sh`
set -e
echo one
false
echo two
`,
  },
  {
    name: "set-e-exceptions",
    script: sh`
set -e
false || echo "handled with ||"
if false; then echo never; fi
! false
false && echo "never printed"
while false; do :; done
echo "survived all of them"
`,
  },
  {
    name: "set-e-in-function",
    script: sh`
set -e
step() {
  echo "step starts"
  false
  echo "unreachable"
}
step
echo "after step"
`,
  },
  {
    name: "and-or-chains",
    script: sh`
true && echo a || echo b
false && echo c || echo d
mkdir work && cd work && echo "in work dir"
cd ..
[ -f nope ] || { echo "nope is missing"; }
false || false || echo "third time"
`,
  },
  {
    name: "command-not-found",
    script: sh`
nosuchcommand --flag
echo "exit: $?"
`,
  },
  {
    name: "set-u-unbound",
    script: sh`
set -u
defined=yes
echo "defined=$defined"
echo "$undefined_var"
echo "not reached"
`,
  },
  {
    name: "set-u-defaults-allowed",
    script: sh`
set -u
name=given
greet() { local who="\${1:-world}"; echo "hello $who"; }
greet
echo "\${name:-fallback} \${unset_one:-fallback} \${unset_two-dash} [\${unset_three:+plus}]"
echo "\${LOG_LEVEL:-info}"
echo "args: $#"
`,
  },
  {
    name: "trap-exit",
    script: sh`
trap 'echo "cleanup done"' EXIT
echo working
exit 2
`,
  },
  {
    name: "exit-from-nested",
    script: sh`
check() {
  [ "$1" -gt 2 ] && { echo "too big: $1"; exit 5; }
  echo "fine: $1"
}
for n in 1 2 3 4; do check $n; done
echo "never"
`,
  },
];
