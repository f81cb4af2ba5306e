/** What agents run: build steps, test loops, jq pipelines, config edits, retry loops. */
import { cases, sh } from "../sh.ts";

export const agents = cases(
  "agents",
  sh`
## build-steps-with-status
set -e; mkdir -p build; for src in a b c; do echo "int $src;" > "build/$src.o"; done; ls build | wc -l; echo "build ok"
## test-loop-summary
pass=0 fail=0; for t in 1 2 3 4 5; do if ((t % 2)); then ((pass++)); else ((fail++)); fi; done; echo "passed=$pass failed=$fail"; ((fail == 0)) || echo "some failed"
## test-runner-exit-code
run() { [[ $1 != bad ]]; }; rc=0; for t in good bad good; do run $t || { echo "FAIL $t"; rc=1; }; done; echo "rc=$rc"
## retry-loop
n=0; until ((n >= 3)); do ((n++)); [[ $n -eq 3 ]] && { echo "succeeded on try $n"; break; }; echo "try $n failed"; done
## jq-select-names
echo '[{"n":"a","ok":true},{"n":"b","ok":false}]' | jq -r '.[] | select(.ok) | .n'
## jq-length-keys
echo '{"b":1,"a":2}' | jq -c 'keys, length'
## jq-map-sum
echo '[1,2,3,4]' | jq 'map(. * 2) | add'
## jq-raw-tsv
echo '[{"a":1,"b":"x"},{"a":2,"b":"y"}]' | jq -r '.[] | [.a, .b] | @tsv'
## jq-build-object
jq -n --arg name demo --argjson n 3 '{name: $name, count: $n}' -c
## jq-update
echo '{"version":"1.0.0","deps":{}}' | jq -c '.version = "1.1.0" | .deps.x = "^2"'
## jq-in-loop
for id in 1 2; do echo "{\"id\":$id}" | jq '.id + 10'; done
## jq-exit-status
echo '{"a":null}' | jq -e '.a' > /dev/null; echo "status $?"
## version-bump
v=1.4.9; IFS=. read -r major minor patch <<< "$v"; echo "$major.$minor.$((patch + 1))"
## semver-compare
ver() { printf '%03d%03d%03d' \${1//./ }; }; [[ $(ver 1.10.0) > $(ver 1.9.3) ]] && echo newer
## env-file-parse
printf 'A=1\n# comment\nB="two words"\n\nC=3\n' > .env; while IFS='=' read -r k v; do [[ -z $k || $k == \#* ]] && continue; v=\${v%\"}; v=\${v#\"}; echo "$k -> $v"; done < .env
## config-edit-sed
printf 'port=80\nhost=x\n' > app.conf; sed -i 's/^port=.*/port=8080/' app.conf; cat app.conf
## find-and-count-extensions
mkdir -p p/q; touch p/a.js p/b.ts p/q/c.ts p/q/d.md; find p -type f -name '*.*' | sed 's/.*\.//' | sort | uniq -c | awk '{print $2, $1}'
## grep-todo-report
printf 'x\n// TODO one\ny\n// TODO two\n' > code.js; grep -n TODO code.js | cut -d: -f1 | paste -sd' '
## log-level-counts
printf 'INFO a\nERROR b\nINFO c\nWARN d\nERROR e\n' > app.log; for lvl in INFO WARN ERROR; do echo "$lvl $(grep -c "^$lvl" app.log)"; done
## csv-column-sum
printf 'name,qty\na,3\nb,4\nc,5\n' > d.csv; tail -n +2 d.csv | cut -d, -f2 | paste -sd+ | bc 2>/dev/null || awk -F, 'NR>1{s+=$2} END{print s}' d.csv
## makefile-like-deps
declare -A built; build() { [[ \${built[$1]} ]] && return; for d in \${deps[$1]}; do build $d; done; echo "build $1"; built[$1]=1; }; declare -A deps=([app]="lib cfg" [lib]="cfg" [cfg]=""); build app
## path-manipulation
p=/opt/tools/bin; case ":$PATH:" in *":$p:"*) echo present;; *) PATH="$p:$PATH"; echo added;; esac
## usage-message
main() { if (($# < 1)); then echo "usage: main <name>" >&2; return 2; fi; echo "hello $1"; }; main 2>/dev/null; echo "rc $?"; main bob
## here-doc-script-gen
cat > gen.sh <<'EOF'
echo "generated $1"
EOF
bash gen.sh arg
## tempfile-cleanup
tmp=work.tmp; echo data > $tmp; wc -c < $tmp; rm -f $tmp; [[ -e $tmp ]] || echo cleaned
## parallel-results-collect
for i in 3 1 2; do echo "r$i" > "res.$i"; done; cat res.* | sort
## string-padding-table
for row in "a 1" "bbb 22" "cc 333"; do set -- $row; printf '%-5s|%5s\n' "$1" "$2"; done
## timing-free-progress
total=5; for ((i=1; i<=total; i++)); do printf '\r%d/%d' $i $total; done; echo
## json-from-shell
items=(x y z); printf '[%s]\n' "$(printf '"%s",' "\${items[@]}" | sed 's/,$//')"
## checksum-compare
echo hello > a; echo hello > b; [[ $(md5sum < a) == $(md5sum < b) ]] && echo identical
## line-count-per-file
printf '1\n2\n' > one.txt; printf '1\n' > two.txt; for f in one.txt two.txt; do echo "$f $(wc -l < $f)"; done
## grep-bre-plus
grep -o '[0-9]\+' <<< 'a12b345'; grep -c 'ab\?c' <<< $'ac\nabc\nabbc'; grep 'a+' <<< $'a+\naa'
## grep-several-patterns
grep -e error -e warn <<< $'error: x\ninfo: y\nwarn: z'
## grep-with-filename
printf 'k=v\n' > cfg; grep -H v cfg; grep -Hn k cfg; grep -H v <<< v
## ls-directories-only
mkdir -p d1 d2 d3; touch f; ls -d d3 d1 d2/ f; ls -d */; ls -dr d*
## sort-array-with-ifs
arr=(pear apple fig); IFS=$'\n' sorted=($(sort <<< "\${arr[*]}")); unset IFS; echo "\${sorted[@]}"
## sed-append-one-line
printf 'a\nb\n' | sed '$a\end'; printf 'a\n' | sed '1i\start'; printf 'a\n' | sed 'a  two spaces'
## sed-change-and-indent
printf 'a\nb\n' | sed '/a/a\  indented'; printf 'x\n' | sed '1c\changed'
## missing-file-head-tail
head -n 1 nothing; echo "rc=$?"; tail nothing; echo "rc=$?"
## missing-file-sort-sed-awk
sort nothing; echo "rc=$?"; sed p nothing; echo "rc=$?"; awk '{print}' nothing; echo "rc=$?"
## missing-file-jq
jq . nothing; echo "rc=$?"
## diff-recursive-trees
mkdir -p src/b; echo alpha > src/a.txt; echo gamma > src/b/c.txt; cp -r src backup; diff -r src backup && echo identical; echo changed > src/a.txt; echo new > backup/only.txt; mkdir src/extra; diff -r src backup; echo "rc=$?"
## diff-recursive-brief
mkdir -p x y; echo 1 > x/f; echo 2 > y/f; echo s > x/same; echo s > y/same; diff -rq x y; echo "rc=$?"
## jq-assign-missing-path
jq -c '.a.b = 1' <<< '{}'; jq -c '.a.b.c = 1' <<< '{}'; jq -c '.a.b |= 5' <<< '{}'; jq -c '.x[2] = 1' <<< '{}'; jq -c '.a.b.c += 1' <<< '{}'
## jq-set-config-value
echo '{"name":"app"}' > cfg.json; jq '.build.target = "es2022" | .build.minify = true' cfg.json > tmp.json && mv tmp.json cfg.json; jq -c . cfg.json
## jq-walk
jq -c 'walk(if type == "number" then . + 1 else . end)' <<< '[1,[2],{"a":3}]'; jq -c 'walk(if type == "object" then del(.x) else . end)' <<< '{"x":1,"y":{"x":2}}'
## jq-sort-by-two-keys
jq -c 'sort_by(.a, .b)' <<< '[{"a":1,"b":2},{"a":1,"b":1},{"a":0,"b":3}]'
## awk-output-separator-option
printf 'a,b,c\n1,2,3\n' | awk -F, -v OFS=';' '{$1=$1; print}'; echo 'x y' | awk -v OFS=- '{print $1, $2}'
## awk-field-power
echo '2 10' | awk '{print $1^$2, $2^2, 2^3^2, $(1+1)}'
## jq-inputs
jq -n 'input' <<< '1 2'; jq -n '[inputs]' -c <<< '4 5'; jq -n 'reduce inputs as $x (0; . + $x)' <<< '1 2 3'; jq -c '[., input]' <<< '1 2 3 4'
## jq-inputs-sum-stream
printf '{"a":1}\n{"a":2}\n' | jq -n '[inputs.a] | add'; echo 'not json' | jq -n '1'
`,
);
