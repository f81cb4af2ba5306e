/** Corpus scripts: globbing, arithmetic, quoting (scripts.ts lists every group in order). */
import { type CorpusScript, sh } from "../sh.ts";

export const globbing: CorpusScript[] = [
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

export const arithmetic: CorpusScript[] = [
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

export const quoting: CorpusScript[] = [
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
