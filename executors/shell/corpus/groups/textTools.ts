/** Corpus scripts: grepScripts, sedScripts, awkScripts, sortScripts (scripts.ts lists every group in order). */
import { type CorpusScript, sh } from "../sh.ts";
import { accessLog, appConf, appLog, salesCsv, workerLog } from "./fixtures.ts";

export const grepScripts: CorpusScript[] = [
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

export const sedScripts: CorpusScript[] = [
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

export const awkScripts: CorpusScript[] = [
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

export const sortScripts: CorpusScript[] = [
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
