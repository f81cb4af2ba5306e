/** Corpus scripts: realistic (scripts.ts lists every group in order). */
import { type CorpusScript, sh } from "../sh.ts";
import { accessLog, appLog, iniFile, salesCsv, usersJson } from "./fixtures.ts";

export const realistic: CorpusScript[] = [
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
