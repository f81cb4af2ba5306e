/**
 * The shell corpus: bash scripts that run both in Cubicle's shell executor (just-bash) and
 * in real bash, whose results must agree byte for byte except where differences.ts says
 * otherwise (api/e2e/shellCorpus.test.ts runs both). Every script works on relative paths in
 * its working directory, which is /workspace in Cubicle and a fresh temporary directory for
 * bash, and prints nothing that depends on time, process ids, the environment's defaults or
 * where that directory is.
 */

import { featureCases } from "./features/index.ts";
import { type CorpusScript, sh } from "./sh.ts";

export type { CorpusScript } from "./sh.ts";

const salesCsv = sh`
date,region,product,units,price
2024-01-03,north,widget,12,2.50
2024-01-04,south,gadget,3,10.00
2024-01-04,north,gadget,5,10.00
2024-01-05,east,widget,7,2.50
2024-01-06,south,widget,20,2.50
2024-01-07,west,gizmo,1,99.99
2024-01-07,east,gadget,4,10.00
2024-01-08,north,gizmo,2,99.99
`;

const appLog = sh`
2024-03-01 10:00:01 INFO server started port=8080
2024-03-01 10:00:05 INFO request GET /api/users 200 12ms user=ann
2024-03-01 10:00:07 WARN slow query table=orders 850ms
2024-03-01 10:01:00 ERROR request POST /api/orders 500 33ms user=bob
2024-03-01 10:01:02 INFO request GET /api/orders 200 41ms user=ann
2024-03-01 10:02:10 ERROR database timeout after 5000ms
2024-03-01 10:02:11 WARN retrying connection attempt=2
2024-03-01 10:02:15 INFO request GET /api/users 200 9ms user=cid
2024-03-01 10:03:00 INFO request DELETE /api/users/7 204 15ms user=bob
2024-03-01 10:04:30 ERROR request GET /api/reports 503 120ms user=ann
2024-03-01 10:05:00 INFO server stopping
`;

const workerLog = sh`
2024-03-01 10:00:02 INFO worker ready queue=emails
2024-03-01 10:01:30 ERROR job 17 failed: smtp refused
2024-03-01 10:01:31 INFO job 18 done
2024-03-01 10:03:45 ERROR job 21 failed: timeout
`;

const accessLog = sh`
10.0.0.1 - - [01/Mar/2024:10:00:01 +0000] "GET /index.html HTTP/1.1" 200 512
10.0.0.2 - - [01/Mar/2024:10:00:02 +0000] "GET /about.html HTTP/1.1" 200 1024
10.0.0.1 - - [01/Mar/2024:10:00:03 +0000] "POST /api/login HTTP/1.1" 401 64
10.0.0.3 - - [01/Mar/2024:10:00:04 +0000] "GET /index.html HTTP/1.1" 200 512
10.0.0.1 - - [01/Mar/2024:10:00:05 +0000] "POST /api/login HTTP/1.1" 200 128
10.0.0.4 - - [01/Mar/2024:10:00:06 +0000] "GET /missing HTTP/1.1" 404 0
10.0.0.2 - - [01/Mar/2024:10:00:07 +0000] "GET /index.html HTTP/1.1" 304 0
10.0.0.3 - - [01/Mar/2024:10:00:08 +0000] "GET /api/data HTTP/1.1" 500 32
10.0.0.1 - - [01/Mar/2024:10:00:09 +0000] "GET /api/data HTTP/1.1" 200 2048
`;

const usersJson = sh`
[
  {"id": 1, "name": "Ann", "age": 34, "dept": "eng", "active": true, "roles": ["admin", "dev"], "email": "ann@example.com"},
  {"id": 2, "name": "Bob", "age": 27, "dept": "sales", "active": false, "roles": ["viewer"], "email": "bob@example.com"},
  {"id": 3, "name": "Cid", "age": 41, "dept": "eng", "active": true, "roles": ["dev"], "email": "cid@example.org"},
  {"id": 4, "name": "Dee", "age": 29, "dept": "ops", "active": true, "roles": ["dev", "oncall"], "email": "dee@example.com"},
  {"id": 5, "name": "Eve", "age": 38, "dept": "sales", "active": true, "roles": [], "email": "eve@example.org"}
]
`;

const ordersJson = sh`
{
  "store": "north",
  "currency": "EUR",
  "orders": [
    {"id": "A-1", "customer": "ann", "items": [{"sku": "W1", "qty": 2, "price": 2.5}, {"sku": "G7", "qty": 1, "price": 10}]},
    {"id": "A-2", "customer": "bob", "items": [{"sku": "W1", "qty": 10, "price": 2.5}]},
    {"id": "A-3", "customer": "ann", "items": [{"sku": "Z9", "qty": 1, "price": 99}, {"sku": "W1", "qty": 4, "price": 2.5}]}
  ]
}
`;

const poem = sh`
The quick brown fox jumps over the lazy dog.
The dog sleeps; the fox runs.
A quick fox, a lazy dog, and the end.
`;

const appConf = sh`
# service configuration
name=billing
port=8080
debug=false
# retries before giving up
retries=3
`;

const iniFile = sh`
[server]
host = 127.0.0.1
port = 8080

[database]
host = db.internal
port = 5432
user = app
`;

const pipes: CorpusScript[] = [
  {
    name: "pipe-sort-uniq-head",
    files: { "fruits.txt": "pear\napple\nfig\nbanana\ncherry\napple\nfig\n" },
    script: sh`
cat fruits.txt | sort | uniq | head -n 3
sort fruits.txt | uniq | wc -l
`,
  },
  {
    name: "pipe-exit-status",
    script: sh`
false | true
echo "false|true: $?"
true | false
echo "true|false: $?"
set -o pipefail
false | true
echo "pipefail false|true: $?"
true | (exit 4) | true
echo "pipefail middle: $?"
`,
  },
  {
    name: "pipe-pipestatus",
    script: sh`
true | false | (exit 3)
echo "\${PIPESTATUS[@]}"
echo ok | grep -q ok
echo "\${PIPESTATUS[0]} \${PIPESTATUS[1]}"
`,
  },
  {
    name: "pipe-while-read-subshell",
    script: sh`
count=0
printf '1\n2\n3\n' | while read -r n; do
  count=$((count + n))
  echo "square of $n is $((n * n)), running total $count"
done
echo "count outside the pipe: $count"
`,
  },
  {
    name: "pipe-stderr-merge",
    script: sh`
{ echo out; echo err >&2; } 2>&1 | tr 'a-z' 'A-Z'
{ echo kept; echo dropped >&2; } 2>/dev/null | cat -n
`,
  },
  {
    name: "pipe-word-frequency",
    files: { "poem.txt": poem },
    script: sh`
tr -cs 'A-Za-z' '\n' < poem.txt | tr 'A-Z' 'a-z' | grep -v '^$' | sort | uniq -c | sort -k1,1nr -k2,2 | head -n 5
`,
  },
];

const redirects: CorpusScript[] = [
  {
    name: "redirect-overwrite-append",
    script: sh`
echo first > notes.txt
echo second >> notes.txt
echo third >> notes.txt
cat notes.txt
echo replaced > notes.txt
cat notes.txt
printf 'a\nb\n' >> notes.txt
wc -l < notes.txt
`,
  },
  {
    name: "redirect-stderr-devnull",
    files: { "present.txt": "here\n" },
    script: sh`
cat missing.txt 2>/dev/null
echo "cat exit: $?"
ls missing-dir 2>/dev/null || echo "ls failed"
grep -q needle missing.txt 2>/dev/null
echo "grep exit: $?"
cat present.txt missing.txt 2>/dev/null
echo "partial exit: $?"
`,
  },
  {
    name: "redirect-order-matters",
    script: sh`
{ echo to-out; echo to-err >&2; } > both.log 2>&1
cat both.log
echo ---
{ echo a; echo b >&2; } 2>&1 >/dev/null | sed 's/^/piped: /'
`,
  },
  {
    name: "redirect-separate-files",
    script: sh`
{ echo o1; echo e1 >&2; echo o2; echo e2 >&2; } >out.txt 2>err.txt
echo "out:"
cat out.txt
echo "err:"
cat err.txt
`,
  },
  {
    name: "redirect-ampersand",
    script: sh`
{ echo one; echo two >&2; } &> all.txt
{ echo three; } &>> all.txt
cat all.txt
wc -l < all.txt
`,
  },
  {
    name: "redirect-input-read-raw",
    files: { "lines.txt": "  two leading spaces\ntrailing spaces   \na\\b backslash\n\nlast\n" },
    script: sh`
while IFS= read -r line; do
  echo "[$line]"
done < lines.txt
while read line; do
  echo "<$line>"
done < lines.txt
`,
  },
  {
    name: "redirect-exec-fd",
    script: sh`
exec 3> log.txt
echo "line one" >&3
echo "line two" >&3
exec 3>&-
cat log.txt
exec 4< log.txt
read -r first <&4
read -r second <&4
exec 4<&-
echo "first=$first second=$second"
`,
  },
  {
    name: "redirect-to-stderr",
    script: sh`
echo "warning: disk almost full" >&2
echo "continuing"
printf 'error: %s\n' "bad input" 1>&2
echo done
`,
  },
  {
    name: "redirect-stdin-header",
    stdin: "name,score\nann,30\nbob,10\ncid,20\n",
    script: sh`
read -r header
echo "header=$header"
sort -t, -k2,2n
`,
  },
];

const heredocs: CorpusScript[] = [
  {
    name: "heredoc-expansion",
    script: sh`
name=world
count=3
cat <<EOF
Hello, $name!
You have $count new messages.
Sum: $((count + 2))
Upper: $(echo "$name" | tr a-z A-Z)
Escaped: \$name
EOF
`,
  },
  {
    name: "heredoc-quoted-delimiter",
    script: sh`
cat <<'EOF'
Nothing expands: $HOME $(echo no) $((1 + 1))
Backslashes stay: \n \t \\
EOF
cat <<"END"
also literal: \${var}
END
`,
  },
  {
    name: "heredoc-strip-tabs",
    script: sh`
if true; then
	cat <<-EOF
	tab-indented line
		two tabs become none
	EOF
fi
`,
  },
  {
    name: "heredoc-keeps-indentation",
    script: sh`
if true; then
  cat <<EOF
no indent
  two spaces
    four spaces
EOF
fi
`,
  },
  {
    name: "herestring",
    script: sh`
tr 'a-z' 'A-Z' <<< "hello here-string"
read -r first rest <<< "alpha beta gamma"
echo "first=$first rest=$rest"
wc -w <<< "one two three four"
x=42
cat <<< "x is $x"
`,
  },
  {
    name: "heredoc-to-file-then-parse",
    script: sh`
cat > settings.env <<EOF
HOST=localhost
PORT=5432
USER=app
EOF
while IFS='=' read -r key value; do
  echo "key '$key' has value '$value'"
done < settings.env
wc -l settings.env
`,
  },
  {
    name: "heredoc-into-pipe",
    script: sh`
cat <<EOF | sort -r | head -n 2
banana
apple
cherry
EOF
grep -c an <<EOF
banana
mango
kiwi
EOF
`,
  },
];

const loops: CorpusScript[] = [
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

const functions: CorpusScript[] = [
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

const globbing: CorpusScript[] = [
  {
    name: "glob-star",
    files: { "a.txt": "", "b.txt": "", "c.log": "", "notes.md": "", "sub/d.txt": "" },
    script: sh`
echo *.txt
echo *
echo sub/*
ls *.txt
`,
  },
  {
    name: "glob-question-bracket",
    files: {
      "file1.txt": "",
      "file2.txt": "",
      "file10.txt": "",
      "ab.md": "",
      "apple.txt": "",
      "banana.txt": "",
      "cherry.txt": "",
    },
    script: sh`
echo file?.txt
echo ??.md
echo [ab]*
echo [!ab]*.txt
echo *[0-9].txt
echo file[12].txt
`,
  },
  {
    name: "glob-brace-expansion",
    script: sh`
echo {a,b,c}.txt
echo {1..5}
echo {a..e}
echo pre{x,y}post
echo {1..10..3}
echo {05..10}
echo {a,b{1,2},c}
echo {5..1}
`,
  },
  {
    name: "glob-no-match",
    files: { "only.txt": "" },
    script: sh`
echo *.xyz
for f in *.none; do echo "got $f"; done
shopt -s nullglob
files=(*.none)
echo "nullglob count: \${#files[@]}"
files=(*.txt)
echo "txt count: \${#files[@]}"
`,
  },
  {
    name: "glob-hidden-files",
    files: { ".hidden": "", ".config": "", visible: "", "src/app.js": "", "src/lib.js": "", "src/.secret.js": "" },
    script: sh`
echo *
echo .[a-z]*
echo src/*.js
echo src/.*.js
`,
  },
  {
    name: "glob-sort-order",
    files: { "B.txt": "", "a.txt": "", "C.txt": "", "b.txt": "", "_x.txt": "", "1.txt": "" },
    script: sh`
echo *.txt
ls
`,
  },
  {
    name: "glob-brace-mkdir",
    script: sh`
mkdir -p proj/{src,test,docs}
touch proj/src/{main,util}.ts proj/test/main.test.ts
find proj | sort
`,
  },
  {
    name: "glob-quoted-pattern",
    files: { "x.txt": "", "y.txt": "" },
    script: sh`
pattern="*.txt"
echo "$pattern"
echo $pattern
echo '*.txt'
echo \*.txt
`,
  },
];

const arithmetic: CorpusScript[] = [
  {
    name: "arith-basic",
    script: sh`
echo $((2 + 3 * 4))
echo $(((2 + 3) * 4))
echo $((17 / 5)) $((17 % 5)) $((2 ** 10))
echo $((-7 / 2)) $((-7 % 2))
a=7
b=3
echo $((a * b)) $((a - b * 2)) $(( (a + b) * 2 ))
`,
  },
  {
    name: "arith-let-and-double-paren",
    script: sh`
let x=5+3
let "y = x * 2"
((z = y - 1))
((z++))
((z += 10))
echo "x=$x y=$y z=$z"
i=0
while ((i < 5)); do ((i++)); done
echo "i=$i"
let "a = 1" "b = a + 1"
echo "a=$a b=$b"
`,
  },
  {
    name: "arith-conditions",
    script: sh`
x=5
y=8
if ((x > 3 && y < 10)); then echo "both hold"; fi
((0))
echo "((0)) status: $?"
((7))
echo "((7)) status: $?"
echo "max: $((x > y ? x : y))"
echo "compare: $((x == 5)) $((x != 5)) $((x <= 4))"
`,
  },
  {
    name: "arith-bases-bitwise",
    script: sh`
echo $((16#ff)) $((0x1F)) $((8#17)) $((2#1010)) $((010))
echo $((5 & 3)) $((5 | 3)) $((5 ^ 3)) $((1 << 4)) $((256 >> 2)) $((~0))
echo $((!0)) $((!5))
`,
  },
  {
    name: "arith-declare-integer",
    script: sh`
declare -i n
n="2 + 3"
echo "n=$n"
n+=4
echo "n=$n"
n="n * 2"
echo "n=$n"
counter=10
counter+=5
echo "string append: $counter"
`,
  },
  {
    name: "arith-division-by-zero",
    script: sh`
echo "before"
echo $((1 / 0))
echo "after"
`,
  },
];

const quoting: CorpusScript[] = [
  {
    name: "quote-single-double",
    script: sh`
name="Ada Lovelace"
echo 'single: $name'
echo "double: $name"
echo "mixed: '$name'"
echo 'it'\''s'
echo "quote \"inside\" double"
echo "dollar \$ and backslash \\ escaped"
echo 'a backtick: \`'
`,
  },
  {
    name: "quote-ansi-c",
    script: sh`
echo $'tab:\there'
printf '%s\n' $'line1\nline2'
echo $'\x41\x42\x43'
echo $'single \'quote\''
echo $'back\\slash'
echo $'caf\u00e9'
`,
  },
  {
    name: "quote-backslash-escapes",
    script: sh`
echo \$HOME \* \"
echo "a\\b" "c\d" 'e\f'
echo -e "col1\tcol2\nnext line"
echo "line\nnot expanded by plain echo"
printf 'percent %% and backslash \\\\\n'
`,
  },
  {
    name: "quote-word-splitting",
    script: sh`
words="one   two three"
for w in $words; do echo "[$w]"; done
for w in "$words"; do echo "[$w]"; done
empty=""
set -- $empty
echo "unquoted empty gives $# args"
set -- "$empty"
echo "quoted empty gives $# args"
`,
  },
  {
    name: "quote-at-vs-star",
    script: sh`
set -- "a b" c "d  e"
for x in "$@"; do echo "at: [$x]"; done
for x in "$*"; do echo "star: [$x]"; done
for x in $*; do echo "bare: [$x]"; done
IFS=,
echo "joined: $*"
`,
  },
  {
    name: "quote-ifs-splitting",
    script: sh`
IFS=: read -r a b c <<< "x:y:z"
echo "$a $b $c"
csv="red,green,,blue"
IFS=, read -ra parts <<< "$csv"
echo "parts: \${#parts[@]}"
for p in "\${parts[@]}"; do echo "<$p>"; done
line="  padded   words  "
read -r first second <<< "$line"
echo "[$first][$second]"
`,
  },
  {
    name: "quote-nested-substitution",
    script: sh`
echo "outer $(echo "inner $(echo "deep")")"
msg="$(printf '%s' "spaces   kept")"
echo "$msg"
echo $msg
x='$(not run)'
echo "$x"
`,
  },
];

const parameters: CorpusScript[] = [
  {
    name: "param-defaults",
    script: sh`
unset missing
empty=""
echo "1 \${missing:-default}"
echo "2 \${empty:-default}"
echo "3 \${empty-default}"
echo "4 \${missing+alt}|\${empty+alt}|\${empty:+alt}"
echo "5 \${assigned:=now set}"
echo "6 $assigned"
set=value
echo "7 \${set:+replacement} \${set:-unused}"
`,
  },
  {
    name: "param-length-substring",
    script: sh`
s="Hello, World"
echo "\${#s}"
echo "\${s:7}"
echo "\${s:0:5}"
echo "\${s: -5}"
echo "\${s:(-5):3}"
echo "\${s:3:-3}"
`,
  },
  {
    name: "param-trim-patterns",
    script: sh`
file=archive.tar.gz
echo "\${file%.*}"
echo "\${file%%.*}"
echo "\${file#*.}"
echo "\${file##*.}"
path=/usr/local/bin/tool
echo "\${path##*/}"
echo "\${path%/*}"
url="https://example.com/a/b?q=1"
host=\${url#*://}
echo "\${host%%/*}"
`,
  },
  {
    name: "param-replace",
    script: sh`
s="banana bandana"
echo "\${s/an/AN}"
echo "\${s//an/AN}"
echo "\${s/#ban/BAN}"
echo "\${s/%ana/ANA}"
echo "\${s//[aeiou]/}"
echo "\${s// /_}"
echo "\${s//an}"
`,
  },
  {
    name: "param-case-modification",
    script: sh`
s="hello World"
echo "\${s^^}"
echo "\${s,,}"
echo "\${s^}"
upper="ABC"
echo "\${upper,}"
`,
  },
  {
    name: "param-indirect",
    script: sh`
target="hit"
ref=target
echo "\${!ref}"
app_name=cubicle
app_port=8080
for v in app_name app_port; do
  echo "$v=\${!v}"
done
`,
  },
  {
    name: "param-required-error",
    script: sh`
name=set
echo "name: \${name:?is required}"
echo "missing: \${missing:?is required}"
echo "not reached"
`,
  },
  {
    name: "array-indexed",
    script: sh`
arr=(x y z)
arr+=(w)
echo "second: \${arr[1]}"
echo "all: \${arr[@]}"
echo "count: \${#arr[@]}"
echo "slice: \${arr[@]:1:2}"
echo "indices: \${!arr[@]}"
unset 'arr[1]'
echo "after unset: \${arr[@]} (\${#arr[@]})"
echo "indices: \${!arr[@]}"
arr[10]=far
echo "sparse: \${!arr[@]}"
echo "last: \${arr[-1]}"
`,
  },
  {
    name: "array-associative",
    script: sh`
declare -A ages=([ann]=31 [bob]=25)
ages[cid]=40
ages[bob]=26
echo "count: \${#ages[@]}"
for name in "\${!ages[@]}"; do
  echo "$name is \${ages[$name]}"
done | sort
if [[ -v ages[bob] ]]; then echo "bob known"; fi
[[ -v ages[zed] ]] || echo "zed unknown"
`,
  },
  {
    name: "array-from-commands",
    files: { "colors.txt": "red\ngreen\nblue\n" },
    script: sh`
mapfile -t lines < colors.txt
echo "\${#lines[@]} lines, second is \${lines[1]}"
readarray -t again < colors.txt
echo "again: \${again[*]}"
nums=($(seq 3 5))
echo "nums: \${nums[*]} sum=$((nums[0] + nums[1] + nums[2]))"
read -ra parts <<< "a b c"
echo "parts: \${#parts[@]}"
`,
  },
  {
    name: "array-element-operations",
    script: sh`
files=(report.txt notes.txt summary.md)
echo "\${files[@]%.txt}"
echo "\${files[@]/#/docs/}"
echo "\${files[@]^}"
IFS=,
echo "\${files[*]}"
unset IFS
printf '<%s>\n' "\${files[@]}"
copy=("\${files[@]}")
copy[0]=changed
echo "\${files[0]} \${copy[0]}"
`,
  },
];

const conditions: CorpusScript[] = [
  {
    name: "test-files",
    files: { "data.txt": "content\n", "empty.txt": "", "dir/inner.txt": "x\n" },
    script: sh`
for p in data.txt empty.txt dir missing; do
  [ -e "$p" ] && echo "$p exists" || echo "$p missing"
  [ -f "$p" ] && echo "$p is a file"
  [ -d "$p" ] && echo "$p is a directory"
  [ -s "$p" ] && echo "$p is not empty"
done
test ! -e missing && echo "negation works"
true
`,
  },
  {
    name: "test-strings",
    script: sh`
a=apple
b=banana
empty=""
[ -z "$empty" ] && echo "empty is empty"
[ -n "$a" ] && echo "a is set"
[ "$a" = apple ] && echo "equal"
[ "$a" != "$b" ] && echo "not equal"
[[ $a < $b ]] && echo "apple sorts before banana"
[[ $b > $a ]] && echo "banana sorts after apple"
[ "$a" = "$b" ]
echo "status of false comparison: $?"
`,
  },
  {
    name: "test-numbers",
    script: sh`
x=10
y=9
[ $x -eq 10 ] && echo "eq"
[ $x -ne $y ] && echo "ne"
[ $y -lt $x ] && echo "lt"
[ $x -le 10 ] && echo "le"
[ $x -gt $y ] && echo "gt"
[ $x -ge 11 ] || echo "not ge 11"
[[ $x > $y ]] || echo "string compare: 10 is not after 9"
(( x > y )) && echo "arithmetic compare: 10 > 9"
`,
  },
  {
    name: "test-pattern-regex",
    script: sh`
for f in report.txt image.png notes.TXT; do
  if [[ $f == *.txt ]]; then echo "$f: text"; else echo "$f: other"; fi
done
s="order-1234"
if [[ $s =~ ^([a-z]+)-([0-9]+)$ ]]; then
  echo "word=\${BASH_REMATCH[1]} number=\${BASH_REMATCH[2]}"
  echo "whole=\${BASH_REMATCH[0]}"
fi
[[ "abc" =~ ^b ]] || echo "no match from start"
re='[0-9]{3}'
[[ "ab1234" =~ $re ]] && echo "matched \${BASH_REMATCH[0]}"
`,
  },
  {
    name: "test-logic",
    files: { "f.txt": "x\n" },
    script: sh`
[[ -f f.txt && ! -d f.txt ]] && echo "file, not dir"
[[ -d f.txt || -s f.txt ]] && echo "or works"
[ -f f.txt ] && [ -r f.txt ] && echo "chained tests"
if [ -f nope ] || [ -f f.txt ]; then echo "one of two"; fi
test -z "" -a -n "x" && echo "test -a"
[ ! -f nope ] && echo "bang"
[[ ! (1 -eq 2) ]] && echo "grouped negation"
`,
  },
];

const cases: CorpusScript[] = [
  {
    name: "case-basic",
    script: sh`
for word in apple Banana cherry 42 "" x-ray; do
  case "$word" in
    [Aa]*) echo "'$word' starts with a" ;;
    [Bb]anana | cherry) echo "'$word' is a known fruit" ;;
    [0-9]*) echo "'$word' is a number" ;;
    "") echo "empty word" ;;
    *) echo "'$word' is something else" ;;
  esac
done
`,
  },
  {
    name: "case-extensions",
    files: { "a.tar.gz": "", "b.gz": "", "c.jpg": "", "d.png": "", "e.txt": "", f: "" },
    script: sh`
for f in *; do
  case $f in
    *.tar.gz) kind="tarball" ;;
    *.gz) kind="gzip" ;;
    *.jpg | *.png) kind="image" ;;
    *.*) kind="other (\${f##*.})" ;;
    *) kind="no extension" ;;
  esac
  echo "$f -> $kind"
done
`,
  },
  {
    name: "case-fallthrough",
    script: sh`
for level in high medium low; do
  echo "level $level:"
  case $level in
    high) echo "  page someone" ;&
    medium) echo "  open a ticket" ;;&
    medium | low) echo "  log it" ;;
  esac
done
`,
  },
];

const subshells: CorpusScript[] = [
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

const exits: CorpusScript[] = [
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

const grepScripts: CorpusScript[] = [
  {
    name: "grep-log-levels",
    files: { "app.log": appLog },
    script: sh`
grep -c ERROR app.log
grep -i warn app.log
grep -v INFO app.log | wc -l
grep -n timeout app.log
`,
  },
  {
    name: "grep-extended-only",
    files: { "app.log": appLog },
    script: sh`
grep -oE '[0-9]+ms' app.log | sort -n | tail -n 3
grep -E 'ERROR|WARN' app.log | cut -d' ' -f3 | sort | uniq -c
grep -oE 'user=[a-z]+' app.log | sort | uniq -c | sort -rn
`,
  },
  {
    name: "grep-recursive",
    files: {
      "src/app.js": "// TODO: split this\nconst x = 1;\n",
      "src/lib/util.js": "export const y = 2; // TODO tidy\n",
      "src/lib/util.test.js": "test('y', () => {});\n",
      "src/README.md": "TODO: document\n",
    },
    script: sh`
grep -rl TODO src | sort
grep -rn TODO src --include='*.js' | sort
grep -rL TODO src | sort
`,
  },
  {
    name: "grep-context-words",
    files: { "app.log": appLog, "ids.txt": "id\nuserid\nid=3\nvalid\nid\n" },
    script: sh`
grep -w id ids.txt
grep -x id ids.txt | wc -l
grep -A1 'database timeout' app.log
grep -B1 -A1 'DELETE' app.log
`,
  },
  {
    name: "grep-exit-status",
    files: { "f.txt": "a.b\naxb\n-pattern\n" },
    script: sh`
grep -q zzz f.txt; echo "no match: $?"
grep -q axb f.txt; echo "match: $?"
grep -s x missing.txt; echo "missing file: $?"
grep -F 'a.b' f.txt
grep 'a.b' f.txt
grep -e -pattern f.txt
`,
  },
  {
    name: "grep-multiple-files",
    files: { "app.log": appLog, "worker.log": workerLog },
    script: sh`
grep ERROR app.log worker.log | cut -c1-60
grep -h ERROR app.log worker.log | wc -l
grep -l 'job' app.log worker.log
grep -c ERROR app.log worker.log
`,
  },
];

const sedScripts: CorpusScript[] = [
  {
    name: "sed-substitute",
    files: { "paths.txt": "/usr/local/bin\n/usr/bin\nfoo foo foo\nHello hello\n" },
    script: sh`
sed 's/foo/bar/' paths.txt
sed 's/foo/bar/g' paths.txt | tail -n 2
sed 's/foo/bar/2' paths.txt | sed -n 3p
sed 's|/|_|g' paths.txt | head -n 2
sed 's/[a-z]*/(&)/' paths.txt | tail -n 1
sed 's/hello/bye/I' paths.txt | tail -n 1
`,
  },
  {
    name: "sed-print-ranges",
    files: { "doc.txt": "title\nstart\nalpha\nbeta\nend\nfooter\n" },
    script: sh`
sed -n '2,4p' doc.txt
echo ---
sed -n '/start/,/end/p' doc.txt
echo ---
sed '1d;$d' doc.txt
echo ---
sed -n '$=' doc.txt
sed '/alpha/,+1d' doc.txt | tr '\n' ' '
echo
`,
  },
  {
    name: "sed-in-place-config",
    files: { "app.conf": appConf },
    script: sh`
sed -i 's/^port=.*/port=9090/' app.conf
sed -i '/^#/d' app.conf
sed -i 's/debug=false/debug=true/' app.conf
cat app.conf
`,
  },
  {
    name: "sed-regex-groups",
    files: { "emails.txt": "ann@example.com\nbob@corp.com\nnot an email\n", "pairs.csv": "key1,value1\nkey2,value2\n" },
    script: sh`
sed -E 's/([a-z]+)@([a-z]+)\.com/\2:\1/' emails.txt
sed 's/\(.*\),\(.*\)/\2=\1/' pairs.csv
sed -E 's/[0-9]+/<&>/g' pairs.csv
sed -n -E '/^[a-z]+@/p' emails.txt
`,
  },
  {
    name: "sed-commands",
    files: { "list.txt": "one\ntwo\nthree\n" },
    script: sh`
sed 'y/abcdefghijklmnopqrstuvwxyz/ABCDEFGHIJKLMNOPQRSTUVWXYZ/' list.txt
sed '2a\
after two' list.txt
sed '1i\
header' list.txt
sed '3c\
replaced' list.txt
sed -e 's/one/1/' -e 's/two/2/' list.txt
sed = list.txt | paste - - -d' '
`,
  },
  {
    name: "sed-csv-transform",
    files: { "sales.csv": salesCsv },
    script: sh`
sed -n '2,4p' sales.csv | sed 's/,/\t/g'
sed '1d' sales.csv | sed -E 's/^([^,]*),([^,]*),.*/\2 on \1/' | head -n 3
sed -n '/gizmo/{s/,/ | /g;p}' sales.csv
`,
  },
];

const awkScripts: CorpusScript[] = [
  {
    name: "awk-sum-columns",
    files: { "sales.csv": salesCsv },
    script: sh`
awk -F, 'NR > 1 { units += $4; revenue += $4 * $5 } END { printf "units=%d revenue=%.2f\n", units, revenue }' sales.csv
awk -F, 'NR > 1 && $3 == "widget" { n += $4 } END { print "widgets:", n }' sales.csv
`,
  },
  {
    name: "awk-group-by",
    files: { "sales.csv": salesCsv },
    script: sh`
awk -F, 'NR > 1 { units[$2] += $4; orders[$2]++ } END { for (r in units) print r, units[r], orders[r] }' sales.csv | sort
awk -F, 'NR > 1 { rev[$3] += $4 * $5 } END { for (p in rev) printf "%s %.2f\n", p, rev[p] }' sales.csv | sort -k2,2nr
`,
  },
  {
    name: "awk-log-levels",
    files: { "app.log": appLog },
    script: sh`
awk '{ count[$3]++ } END { for (level in count) printf "%-5s %d\n", level, count[level] }' app.log | sort
awk '$3 == "ERROR" { print $2, substr($0, index($0, $4)) }' app.log
`,
  },
  {
    name: "awk-builtins",
    files: { "app.log": appLog },
    script: sh`
awk 'NR <= 3 { print NR, NF, $NF, $(NF - 1) }' app.log
awk 'NR == 2 { print length($0), toupper($3), substr($4, 1, 3), index($0, "GET") }' app.log
awk 'NR == 4 { n = split($6, parts, "/"); print n, parts[2], parts[3] }' app.log
awk 'BEGIN { OFS = "|" } NR == 1 { $1 = $1; print }' app.log
awk 'BEGIN { s = sprintf("%05.1f|%-4s|%x", 3.14159, "ab", 255); print s }'
`,
  },
  {
    name: "awk-vars-conditions",
    files: { "sales.csv": salesCsv },
    script: sh`
awk -F, -v min=5 'NR > 1 && $4 >= min { print $3, $4 }' sales.csv
awk -F, '/gadget/ { next } NR > 1 { print $1 }' sales.csv | uniq
awk -F, 'NR > 1 { s = $2; n = gsub(/o/, "0", s); if (n > 0) print s, n }' sales.csv | sort -u
`,
  },
  {
    name: "awk-report-table",
    files: { "sales.csv": salesCsv },
    script: sh`
awk -F, '
BEGIN { printf "%-10s %-7s %5s %8s\n", "date", "product", "units", "total" }
NR > 1 { total = $4 * $5; sum += total; printf "%-10s %-7s %5d %8.2f\n", $1, $3, $4, total }
END { printf "%-10s %-7s %5s %8.2f\n", "", "", "sum", sum }
' sales.csv
`,
  },
  {
    name: "awk-csv-to-json",
    files: { "sales.csv": salesCsv },
    script: sh`
awk -F, 'NR > 1 { printf "{\"region\":\"%s\",\"units\":%d}\n", $2, $4 }' sales.csv > rows.jsonl
head -n 2 rows.jsonl
jq -s 'group_by(.region) | map({region: .[0].region, units: (map(.units) | add)})' -c rows.jsonl
`,
  },
];

const sortScripts: CorpusScript[] = [
  {
    name: "sort-keys-numeric",
    files: { "sales.csv": salesCsv },
    script: sh`
tail -n +2 sales.csv | sort -t, -k4,4n | cut -d, -f3,4
echo ---
tail -n +2 sales.csv | sort -t, -k2,2 -k4,4nr | cut -d, -f2,4
echo ---
printf '10\n9\n100\n1\n' | sort
printf '10\n9\n100\n1\n' | sort -n
printf '10\n9\n100\n1\n' | sort -rn
`,
  },
  {
    name: "sort-uniq-counts",
    files: { "access.log": accessLog },
    script: sh`
cut -d' ' -f1 access.log | sort | uniq -c | sort -k1,1nr -k2,2
cut -d' ' -f1 access.log | sort -u
awk '{ print $9 }' access.log | sort | uniq -d
awk '{ print $9 }' access.log | sort | uniq -u
`,
  },
  {
    name: "sort-flags",
    script: sh`
printf 'banana\nApple\ncherry\napple\n' | sort
printf 'banana\nApple\ncherry\napple\n' | sort -f
printf 'v1.10\nv1.2\nv1.9\n' | sort -V
printf 'b 2\na 2\nc 1\n' | sort -k2,2n -s
printf 'x\ny\nx\n' | sort -u
printf 'b\na\n' | sort -C && echo sorted || echo "not sorted"
`,
  },
  {
    name: "uniq-options",
    files: { "events.txt": "login\nLOGIN\nview\nlogin\nlogin\nview\nview\nlogout\n" },
    script: sh`
uniq events.txt
echo ---
uniq -c events.txt
echo ---
uniq -d events.txt
echo ---
uniq -i -c events.txt
`,
  },
];

const textScripts: CorpusScript[] = [
  {
    name: "wc-counts",
    files: { "app.log": appLog, "poem.txt": poem },
    script: sh`
wc -l app.log
wc -w < poem.txt
wc -c <<< "hello"
wc -l app.log poem.txt
wc poem.txt
printf 'no newline' | wc -l
`,
  },
  {
    name: "head-tail",
    script: sh`
seq 10 > nums.txt
head -n 3 nums.txt
echo ---
tail -n 2 nums.txt
echo ---
tail -n +9 nums.txt
echo ---
head -n -7 nums.txt
echo ---
head -c 5 nums.txt | od -c | head -n 1
tail -c 3 nums.txt
`,
  },
  {
    name: "head-tail-pipeline",
    files: { "sales.csv": salesCsv },
    script: sh`
seq 100 | tail -n 5 | head -n 2
tail -n +2 sales.csv | head -n 3 | cut -d, -f2
head -n 1 sales.csv | tr ',' '\n' | wc -l
`,
  },
  {
    name: "cut-fields",
    files: { "sales.csv": salesCsv, "app.log": appLog },
    script: sh`
cut -d, -f1,3 sales.csv | head -n 3
cut -d, -f2- sales.csv | tail -n 2
cut -c1-10 app.log | uniq
cut -d' ' -f3 app.log | sort | uniq -c
cut -d, -f2,3 --output-delimiter=' / ' sales.csv | sed -n 2p
`,
  },
  {
    name: "tr-transforms",
    script: sh`
echo "Hello World" | tr 'a-z' 'A-Z'
echo "phone: 555-0100" | tr -d '0-9'
echo "too    many     spaces" | tr -s ' '
echo "keep letters only!" | tr -c 'a-z\n' '_'
echo "MiXeD" | tr '[:upper:]' '[:lower:]'
printf 'a\nb\nc\n' | tr '\n' ','
echo
echo "abc123def" | tr -dc '0-9'
echo
`,
  },
  {
    name: "cut-tr-passwd",
    files: {
      passwd:
        "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\nann:x:1000:1000:Ann:/home/ann:/bin/zsh\n",
    },
    script: sh`
cut -d: -f1,7 passwd | tr ':' ' '
awk -F: '$3 >= 1000 { print $1 }' passwd
cut -d: -f7 passwd | sort | uniq -c | sort -rn | head -n 1
`,
  },
];

const findScripts: CorpusScript[] = [
  {
    name: "find-name-type",
    files: {
      "a.txt": "",
      "docs/b.txt": "",
      "docs/c.md": "",
      "docs/deep/d.TXT": "",
      "src/main.js": "",
      "src/lib/util.js": "",
    },
    script: sh`
find . -name '*.txt' | sort
echo ---
find . -type d | sort
echo ---
find src -type f -name '*.js' | sort
echo ---
find . -maxdepth 1 -type f | sort
echo ---
find . -iname '*.txt' | sort
echo ---
find . -mindepth 2 -type f | sort
`,
  },
  {
    name: "find-exec-delete",
    files: { "logs/a.log": "1\n2\n", "logs/b.log": "1\n", "tmp/x.tmp": "", "tmp/y.tmp": "", "keep.txt": "hello\n" },
    script: sh`
find . -name '*.log' -exec wc -l {} \; | sort
find . -name '*.tmp' -delete
find . -type f | sort
find . -name '*.txt' -exec grep -l hello {} +
`,
  },
  {
    name: "find-predicates",
    files: { "empty.txt": "", "full.txt": "data\n", "src/a.js": "1\n", "src/b.ts": "2\n", "test/a.js": "3\n" },
    script: sh`
find . -type f -empty
find . -path './src/*' -name '*.js'
find . -type f -not -name '*.js' | sort
find . -type f \( -name '*.ts' -o -name 'full*' \) | sort
`,
  },
  {
    name: "xargs-basic",
    script: sh`
echo "a b c" | xargs -n 1
seq 6 | xargs -n 2
printf '%s\n' x y | xargs -I{} echo "item {}"
echo "one two" | xargs echo "words:"
printf '' | xargs echo "empty input still runs"
`,
  },
  {
    name: "xargs-files",
    files: { "one.txt": "first\n", "two.txt": "second\n", "three.log": "l1\nl2\n", "four.log": "l\n" },
    script: sh`
find . -name '*.txt' -print0 | sort -z | xargs -0 cat
find . -name '*.log' | sort | xargs wc -l
ls *.txt | xargs rm
ls
`,
  },
  {
    name: "xargs-mkdir",
    script: sh`
echo "alpha beta gamma" | xargs mkdir
ls
printf 'alpha\nbeta\n' | xargs -I{} touch {}/marker
find . -name marker | sort
`,
  },
];

const jqScripts: CorpusScript[] = [
  {
    name: "jq-basic",
    files: { "users.json": usersJson },
    script: sh`
jq -r '.[].name' users.json
jq '.[0].roles' users.json
jq 'length' users.json
jq -r '.[] | "\(.name) is \(.age)"' users.json
`,
  },
  {
    name: "jq-select-map",
    files: { "users.json": usersJson },
    script: sh`
jq '[.[] | select(.active)] | map(.name)' users.json
jq -c '.[] | select(.age > 30) | {name, age}' users.json
jq -r '.[] | select(.email | endswith(".org")) | .email' users.json
jq '[.[] | .roles[]] | unique' -c users.json
`,
  },
  {
    name: "jq-aggregate",
    files: { "users.json": usersJson },
    script: sh`
jq 'map(.age) | add / length' users.json
jq -c 'group_by(.dept) | map({dept: .[0].dept, count: length})' users.json
jq -r 'sort_by(.age) | .[].name' users.json
jq -r 'max_by(.age).name, min_by(.age).name' users.json
jq '[.[] | select(.roles | index("dev"))] | length' users.json
`,
  },
  {
    name: "jq-transform",
    files: { "users.json": usersJson },
    script: sh`
jq -c '.[0] | to_entries | map(select(.key == "id" or .key == "name"))' users.json
jq -c '.[0] | keys' users.json
jq -c '.[1] | del(.email, .roles) | .age += 1' users.json
jq -n --arg who Ann --argjson n 3 '{greeting: ("hi " + $who), n: $n}'
jq -r '.[] | [.id, .name, .dept] | @csv' users.json
jq -r '.[] | [.name, (.roles | join(";"))] | @tsv' users.json
`,
  },
  {
    name: "jq-nested",
    files: { "orders.json": ordersJson },
    script: sh`
jq '[.orders[] | .items[] | .price * .qty] | add' orders.json
jq -r '.orders[] | select(.items | length > 1) | .id' orders.json
jq -c '[.. | .sku? // empty] | unique' orders.json
jq -c '.orders | map({id, total: (.items | map(.price * .qty) | add)})' orders.json
jq -r '.orders | group_by(.customer)[] | "\(.[0].customer): \(length) orders"' orders.json
`,
  },
  {
    name: "jq-pipeline-exit",
    files: { "users.json": usersJson },
    script: sh`
jq -r '.[] | [.name, .dept] | @tsv' users.json | sort -k2,2 -k1,1 | awk '{ print $2 ": " $1 }'
echo '{"a":1}' | jq -e '.missing'
echo "jq -e exit: $?"
echo '{"a":{"b":[1,2,3]}}' | jq '.a.b | map(. * 10)' -c
printf '{"n":1}\n{"n":2}\n{"n":3}\n' | jq -s 'map(.n) | add'
`,
  },
];

const fileCommands: CorpusScript[] = [
  {
    name: "cat-echo-printf",
    files: { "two.txt": "first line\nsecond line\n" },
    script: sh`
cat -n two.txt
echo -n "no newline"
echo " <- joined"
echo -e "a\tb"
printf '%5s|%-5s|%05d|%.2f|%x|%o|%%\n' ab cd 42 3.14159 255 8
printf '%s-%s\n' a b c d
printf '%d items\n' 3
printf '[%3d]\n' 1 22 333
`,
  },
  {
    name: "printf-table",
    files: { "sales.csv": salesCsv },
    script: sh`
printf '%-8s|%6s\n' region units
tail -n +2 sales.csv | while IFS=, read -r _ region _ units _; do
  printf '%-8s|%6d\n' "$region" "$units"
done | sort
printf -v line '%s=%s' key value
echo "printf -v gave: $line"
`,
  },
  {
    name: "ls-listing",
    files: { "b.txt": "", "a.txt": "", "dir/x": "", "dir/sub/y": "", ".dotfile": "" },
    script: sh`
ls
echo ---
ls -1 dir
echo ---
ls -a
echo ---
ls -R dir
echo ---
ls -d dir
ls nonexistent-dir 2>/dev/null || echo "ls exit: $?"
`,
  },
  {
    name: "files-mkdir-cp-mv-rm",
    script: sh`
mkdir -p a/b/c
touch a/b/c/file.txt a/top.txt
echo data > a/top.txt
cp a/top.txt a/copy.txt
cp -r a a-backup
mv a/copy.txt a/moved.txt
mv a/b a/renamed
rm a/top.txt
find . | sort
rm -r a-backup
rmdir a/renamed/c 2>/dev/null || echo "not empty"
rm a/renamed/c/file.txt
rmdir a/renamed/c
find . | sort
cat a/moved.txt
`,
  },
  {
    name: "cp-mv-overwrite",
    script: sh`
echo old > target.txt
echo new > source.txt
cp source.txt target.txt
cat target.txt
echo newer > source.txt
mv source.txt target.txt
cat target.txt
mkdir -p out
echo v1 > out/report.txt
echo v2 > report.txt
cp report.txt out/
cat out/report.txt
ls
`,
  },
  {
    name: "cp-directory-contents",
    files: { "src/a.txt": "alpha\n", "src/b/c.txt": "gamma\n" },
    script: sh`
mkdir -p dest
cp -r src/. dest/
find dest | sort
cat dest/b/c.txt
`,
  },
  {
    name: "files-error-messages",
    script: sh`
rm nope.txt
echo "rm: $?"
mkdir d
mkdir d
echo "mkdir: $?"
cat missing.txt
echo "cat: $?"
`,
  },
  {
    name: "basename-dirname",
    script: sh`
basename /a/b/c.txt
basename c.txt .txt
basename -s .txt a.txt b.txt
basename /a/b/
dirname /a/b/c
dirname c
dirname a/b/
dirname /
`,
  },
  {
    name: "seq-forms",
    script: sh`
seq 5 | tr '\n' ' '; echo
seq 3 7 | tr '\n' ' '; echo
seq 1 3 10 | tr '\n' ' '; echo
seq 5 -1 1 | tr '\n' ' '; echo
seq -s, 5
seq -w 8 11 | tr '\n' ' '; echo
seq 0.5 0.5 2
`,
  },
  {
    name: "tee-usage",
    script: sh`
echo hello | tee out.txt
echo more | tee -a out.txt > /dev/null
cat out.txt
echo both | tee one.txt two.txt | tr a-z A-Z
cat one.txt two.txt
`,
  },
  {
    name: "diff-files",
    files: { "old.txt": "apple\nbanana\ncherry\ndate\n", "new.txt": "apple\nblueberry\ncherry\ndate\nelderberry\n" },
    script: sh`
diff old.txt new.txt
echo "exit: $?"
diff old.txt old.txt
echo "same exit: $?"
diff -q old.txt new.txt
diff -u old.txt new.txt | tail -n +3
`,
  },
  {
    name: "cat-stdin-mix",
    files: { "a.txt": "from a\n", "b.txt": "from b\n" },
    stdin: "from stdin\n",
    script: sh`
cat a.txt - b.txt
cat a.txt b.txt > joined.txt
cat -n joined.txt
`,
  },
  {
    name: "touch-and-test",
    script: sh`
touch new.txt
[ -f new.txt ] && [ ! -s new.txt ] && echo "created empty"
echo content > new.txt
touch new.txt
cat new.txt
mkdir -p x/y && touch x/y/z
ls x/y
`,
  },
];

const builtins: CorpusScript[] = [
  {
    name: "env-variables",
    env: { GREETING: "Hello", APP_NAME: "cubicle", APP_MODE: "test" },
    script: sh`
echo "$GREETING from $APP_NAME"
printenv APP_MODE
env | grep '^APP_' | sort
export APP_EXTRA=1
env | grep -c '^APP_'
APP_ONCE=inline sh -c 'echo "inline: $APP_ONCE"'
echo "after: \${APP_ONCE:-unset}"
`,
  },
  {
    name: "read-builtin",
    stdin: "alice 30 admin\nbob 25\n",
    script: sh`
read -r name age role
echo "name=$name age=$age role=$role"
read -r -a fields
echo "\${#fields[@]} fields: \${fields[1]}"
read -r nothing || echo "read at EOF: $?"
IFS=- read -r y m d <<< "2024-03-01"
echo "$d/$m/$y"
`,
  },
  {
    name: "source-library",
    files: { "lib.sh": 'greet() { echo "hello from lib, $1"; }\nLIB_VERSION=2\n' },
    script: sh`
source ./lib.sh
greet ann
. ./lib.sh
echo "version $LIB_VERSION"
`,
  },
  {
    name: "run-script-file",
    files: { "run.sh": 'echo "args: $# first=$1 second=$2"\nexit 4\n' },
    script: sh`
bash run.sh one two
echo "script exit: $?"
sh run.sh solo
echo "sh exit: $?"
`,
  },
  {
    name: "eval-and-declare",
    script: sh`
eval "x=5; y=\$((x * 2))"
echo "x=$x y=$y"
cmd='echo evaluated'
eval "$cmd"
var_name=dynamic
eval "$var_name=value"
echo "dynamic=$dynamic"
declare -r constant=1
echo "constant=$constant"
`,
  },
  {
    name: "readonly-assignment",
    script: sh`
readonly fixed=1
fixed=2
echo "fixed=$fixed status=$?"
`,
  },
  {
    name: "getopts-parsing",
    script: sh`
parse() {
  local OPTIND opt verbose=0 output=none
  while getopts "vo:" opt; do
    case $opt in
      v) verbose=1 ;;
      o) output=$OPTARG ;;
      *) echo "bad option"; return 2 ;;
    esac
  done
  shift $((OPTIND - 1))
  echo "verbose=$verbose output=$output rest=$*"
}
parse -v -o out.txt a b
parse file
parse -o x
`,
  },
  {
    name: "string-manipulation",
    script: sh`
s="stressed"
rev=""
for ((i = \${#s} - 1; i >= 0; i--)); do rev="$rev\${s:i:1}"; done
echo "$s reversed is $rev"
word="level"
[ "$word" = "$(echo "$word" | rev)" ] && echo "$word is a palindrome"
csv="a,b,c"
echo "\${csv//,/ }"
count=$(grep -o "s" <<< "$s" | wc -l)
echo "s appears $count times"
`,
  },
  {
    name: "declare-print",
    script: sh`
declare -a list=(one two)
declare -A map=([k]=v)
name="a value"
declare -p name
declare -p list
declare -p map
`,
  },
  {
    name: "cd-relative",
    script: sh`
mkdir -p a/b
cd a/b
touch here.txt
cd ../..
find a | sort
cd a
ls
cd ..
ls
`,
  },
  {
    name: "local-arrays-in-functions",
    script: sh`
stats() {
  local -a values=("$@")
  local sum=0 max=\${values[0]}
  for v in "\${values[@]}"; do
    sum=$((sum + v))
    ((v > max)) && max=$v
  done
  echo "n=\${#values[@]} sum=$sum max=$max"
}
stats 3 9 4
stats 10
`,
  },
];

const realistic: CorpusScript[] = [
  {
    name: "real-access-log-report",
    files: { "access.log": accessLog },
    script: sh`
echo "requests: $(wc -l < access.log)"
echo "by status:"
awk '{ print $9 }' access.log | sort | uniq -c | sort -k2,2n | awk '{ printf "  %s %d\n", $2, $1 }'
echo "errors (>= 400):"
awk '$9 >= 400 { print "  " $7, $9 }' access.log
echo "bytes by path:"
awk '{ bytes[$7] += $10 } END { for (p in bytes) print bytes[p], p }' access.log | sort -k1,1nr -k2,2 | head -n 3
`,
  },
  {
    name: "real-csv-revenue",
    files: { "sales.csv": salesCsv },
    script: sh`
best=$(tail -n +2 sales.csv | awk -F, '{ r[$2] += $4 * $5 } END { for (k in r) printf "%.2f %s\n", r[k], k }' | sort -rn | head -n 1)
echo "top region: \${best#* } (\${best%% *})"
days=$(cut -d, -f1 sales.csv | tail -n +2 | sort -u | wc -l)
echo "distinct days: $days"
products=$(tail -n +2 sales.csv | cut -d, -f3 | sort -u | paste -sd, -)
echo "products: $products"
`,
  },
  {
    name: "real-json-roles",
    files: { "users.json": usersJson },
    script: sh`
jq -r '.[] | .roles[]' users.json | sort | uniq -c | sort -k1,1nr -k2,2
echo "active engineers:"
jq -r '.[] | select(.dept == "eng" and .active) | .name' users.json | while read -r n; do
  echo "  - $n"
done
domains=$(jq -r '.[].email | split("@")[1]' users.json | sort -u | tr '\n' ' ')
echo "domains: $domains"
`,
  },
  {
    name: "real-batch-rename",
    files: { "IMG_01.jpeg": "", "IMG_02.jpeg": "", "notes.txt": "", "Photo 3.jpeg": "" },
    script: sh`
for f in *.jpeg; do
  new="\${f%.jpeg}.jpg"
  new="\${new// /_}"
  mv "$f" "$new"
  echo "renamed '$f' -> '$new'"
done
ls
`,
  },
  {
    name: "real-ini-parser",
    files: { "config.ini": iniFile },
    script: sh`
section=""
while IFS= read -r line; do
  case $line in
    "" | "#"*) continue ;;
    "["*"]") section=\${line#[}; section=\${section%]} ;;
    *=*)
      key=\${line%%=*}; key=\${key// /}
      value=\${line#*=}; value=\${value# }
      echo "$section.$key=$value"
      ;;
  esac
done < config.ini
`,
  },
  {
    name: "real-backup-verify",
    files: { "src/a.txt": "alpha\n", "src/b/c.txt": "gamma\n" },
    script: sh`
set -e
backup() {
  local from=$1 to=$2
  cp -r "$from" "$to"
  echo "backed up $(find "$from" -type f | wc -l) files"
}
backup src backup
diff -r src backup && echo "identical"
echo changed > src/a.txt
diff -r src backup || echo "drift detected"
`,
  },
  {
    name: "real-stdin-stats",
    stdin: "12\n7\n30\n7\n18\n",
    script: sh`
sort -n > sorted.txt
echo "min: $(head -n 1 sorted.txt)"
echo "max: $(tail -n 1 sorted.txt)"
awk '{ s += $1 } END { printf "mean: %.1f\n", s / NR }' sorted.txt
echo "median: $(sed -n "$(( ($(wc -l < sorted.txt) + 1) / 2 ))p" sorted.txt)"
`,
  },
  {
    name: "real-todo-extract",
    files: {
      "src/a.ts": "// TODO(ann): handle errors\nexport const a = 1;\n// FIXME: slow\n",
      "src/b.ts": "export const b = 2; // TODO(bob): rename\n",
    },
    script: sh`
grep -rnoE '(TODO|FIXME)(\([a-z]+\))?:.*' src | sort | while IFS=: read -r file line rest; do
  echo "$file:$line -> \${rest#*: }"
done
grep -rhoE 'TODO\([a-z]+\)' src | sed -E 's/TODO\((.*)\)/\1/' | sort | uniq -c
`,
  },
  {
    name: "real-log-rotate",
    files: { "app.log": appLog },
    script: sh`
for i in 3 2 1; do
  [ -f "app.log.$i" ] && mv "app.log.$i" "app.log.$((i + 1))"
done
cp app.log app.log.1
: > app.log
echo "rotated" >> app.log
ls app.log*
wc -l app.log app.log.1 | tail -n 1
`,
  },
  {
    name: "real-dedupe-merge",
    files: { "list1.txt": "ann\nbob\ncid\n", "list2.txt": "bob\ndee\nann\neve\n" },
    script: sh`
echo "union:"; sort -u list1.txt list2.txt
echo "both:"; sort list1.txt list2.txt | uniq -d
echo "only first:"; comm -23 <(sort list1.txt) <(sort list2.txt)
`,
  },
  {
    name: "real-env-template",
    files: { "template.txt": "Dear {{name}},\nyour order {{order}} ships {{when}}.\n" },
    script: sh`
declare -A vars=([name]=Ann [order]=A-17 [when]=tomorrow)
content=$(cat template.txt)
for key in name order when; do
  content=\${content//"{{$key}}"/\${vars[$key]}}
done
echo "$content"
`,
  },
  {
    name: "real-retry-loop",
    script: sh`
attempt=0
flaky() {
  attempt=$((attempt + 1))
  [ $attempt -ge 3 ]
}
until flaky; do
  echo "attempt $attempt failed, retrying"
done
echo "succeeded after $attempt attempts"
`,
  },
  {
    name: "real-json-build",
    script: sh`
items=""
for name in alpha beta gamma; do
  items="$items{\"name\":\"$name\",\"len\":\${#name}},"
done
echo "[\${items%,}]" | jq -c 'map(select(.len > 4)) | map(.name)'
jq -n '[range(1; 6)] | map(. * .) | {squares: ., total: add}' -c
`,
  },
];

/** Every script, in the order the test runs them. */
export const corpus: CorpusScript[] = [
  ...pipes,
  ...redirects,
  ...heredocs,
  ...loops,
  ...functions,
  ...globbing,
  ...arithmetic,
  ...quoting,
  ...parameters,
  ...conditions,
  ...cases,
  ...subshells,
  ...exits,
  ...grepScripts,
  ...sedScripts,
  ...awkScripts,
  ...sortScripts,
  ...textScripts,
  ...findScripts,
  ...jqScripts,
  ...fileCommands,
  ...builtins,
  ...realistic,
  ...featureCases,
];
