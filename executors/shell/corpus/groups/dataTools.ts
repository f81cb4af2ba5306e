/** Corpus scripts: textScripts, findScripts, jqScripts (scripts.ts lists every group in order). */
import { type CorpusScript, sh } from "../sh.ts";
import { appLog, ordersJson, poem, salesCsv, usersJson } from "./fixtures.ts";

export const textScripts: CorpusScript[] = [
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

export const findScripts: CorpusScript[] = [
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

export const jqScripts: CorpusScript[] = [
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
