/** Corpus scripts: builtins (scripts.ts lists every group in order). */
import { type CorpusScript, sh } from "../sh.ts";

export const builtins: CorpusScript[] = [
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
