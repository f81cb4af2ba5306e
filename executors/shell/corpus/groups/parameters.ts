/** Corpus scripts: parameters, conditions, cases (scripts.ts lists every group in order). */
import { type CorpusScript, sh } from "../sh.ts";

export const parameters: CorpusScript[] = [
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

export const conditions: CorpusScript[] = [
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

export const cases: CorpusScript[] = [
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
