/** Corpus scripts: loops, functions (scripts.ts lists every group in order). */
import { type CorpusScript, sh } from "../sh.ts";
import { salesCsv } from "./fixtures.ts";

export const loops: CorpusScript[] = [
  {
    name: "loop-for-forms",
    script: sh`
for color in red green blue; do
  echo "color: $color"
done
for ((i = 0; i < 3; i++)); do
  echo "index $i"
done
for word in $(echo "x y z"); do printf '%s.' "$word"; done
echo
`,
  },
  {
    name: "loop-while-until",
    script: sh`
n=1
while [ $n -le 4 ]; do
  echo "while $n"
  n=$((n * 2))
done
m=3
until [ $m -eq 0 ]; do
  echo "until $m"
  m=$((m - 1))
done
`,
  },
  {
    name: "loop-break-continue",
    script: sh`
for i in 1 2 3 4 5 6 7 8; do
  if [ $((i % 2)) -eq 0 ]; then continue; fi
  if [ $i -gt 5 ]; then break; fi
  echo "odd $i"
done
for outer in a b c; do
  for inner in 1 2 3; do
    if [ "$inner" = 2 ] && [ "$outer" = b ]; then break 2; fi
    echo "$outer$inner"
  done
done
echo "after loops"
`,
  },
  {
    name: "loop-over-files",
    files: { "a.csv": "h\n1\n2\n", "b.csv": "h\n1\n", "c.csv": "h\n1\n2\n3\n", "notes.md": "x\n" },
    script: sh`
for f in *.csv; do
  echo "$f has $(($(wc -l < "$f") - 1)) data rows"
done
`,
  },
  {
    name: "loop-read-csv",
    files: { "sales.csv": salesCsv },
    script: sh`
tail -n +2 sales.csv | while IFS=, read -r date region product units price; do
  if [ "$region" = north ]; then
    echo "$date $product x$units"
  fi
done
`,
  },
  {
    name: "loop-seq-sum",
    script: sh`
total=0
for i in $(seq 1 100); do
  total=$((total + i))
done
echo "sum 1..100 = $total"
evens=0
for i in {2..20..2}; do evens=$((evens + i)); done
echo "evens = $evens"
`,
  },
  {
    name: "loop-multiplication-table",
    script: sh`
for i in 1 2 3 4; do
  for j in 1 2 3 4; do
    printf '%4d' $((i * j))
  done
  printf '\n'
done
`,
  },
  {
    name: "loop-positional",
    script: sh`
set -- alpha "beta gamma" delta
for arg; do
  echo "arg: $arg"
done
while [ $# -gt 0 ]; do
  echo "shifting $1 ($# left)"
  shift
done
`,
  },
];

export const functions: CorpusScript[] = [
  {
    name: "func-local-scope",
    script: sh`
x=global
change() {
  local x=local
  y=leaked
  echo "inside: x=$x"
}
change
echo "outside: x=$x y=$y"
`,
  },
  {
    name: "func-return-codes",
    script: sh`
is_even() {
  return $(( $1 % 2 ))
}
for n in 3 4 7 10; do
  if is_even "$n"; then echo "$n even"; else echo "$n odd"; fi
done
last_status() { false; }
last_status
echo "implicit return: $?"
explicit() { return 42; }
explicit
echo "explicit return: $?"
`,
  },
  {
    name: "func-recursion-factorial",
    script: sh`
factorial() {
  if [ "$1" -le 1 ]; then
    echo 1
  else
    local prev
    prev=$(factorial $(($1 - 1)))
    echo $(($1 * prev))
  fi
}
for n in 0 1 5 10 15; do
  echo "$n! = $(factorial $n)"
done
`,
  },
  {
    name: "func-recursion-fibonacci",
    script: sh`
fib() {
  local n=$1
  if ((n < 2)); then
    result=$n
    return
  fi
  fib $((n - 1))
  local a=$result
  fib $((n - 2))
  result=$((a + result))
}
for n in 1 5 10 15; do
  fib $n
  echo "fib($n) = $result"
done
`,
  },
  {
    name: "func-args-shift",
    script: sh`
show() {
  echo "count=$#"
  echo "first=$1"
  echo "all=$*"
  echo "rest=\${*:2}"
  shift 2
  echo "after shift: $*"
}
show one two "three four" five
`,
  },
  {
    name: "func-hanoi",
    script: sh`
moves=0
hanoi() {
  local n=$1 from=$2 to=$3 via=$4
  if ((n == 0)); then return; fi
  hanoi $((n - 1)) "$from" "$via" "$to"
  echo "move disk $n from $from to $to"
  moves=$((moves + 1))
  hanoi $((n - 1)) "$via" "$to" "$from"
}
hanoi 3 A C B
echo "total moves: $moves"
`,
  },
  {
    name: "func-dynamic-scope",
    script: sh`
inner() { echo "inner sees level=$level"; level=changed; }
outer() {
  local level=outer
  inner
  echo "outer after inner: $level"
}
level=top
outer
echo "top: $level"
`,
  },
  {
    name: "func-keyword-and-redefine",
    script: sh`
function greet {
  echo "hello, \${1:-stranger}"
}
greet
greet Ada
greet() { echo "hi again, $1"; }
greet Grace
counter() { count=$((\${count:-0} + 1)); }
counter; counter; counter
echo "count=$count"
`,
  },
  {
    name: "func-output-capture",
    script: sh`
to_upper() { tr 'a-z' 'A-Z'; }
join_by() {
  local sep=$1
  shift
  local out=$1
  shift
  for part in "$@"; do out="$out$sep$part"; done
  echo "$out"
}
echo "shout" | to_upper
list=$(join_by ", " red green blue)
echo "list: $list"
echo "length: \${#list}"
`,
  },
];
