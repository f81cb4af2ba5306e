/** Quoting, word splitting, globs, here-docs, redirections, command substitution and pipelines. */
import { cases, sh } from "../sh.ts";

export const quoting = cases(
  "quoting",
  sh`
## single-double-mixed
echo 'single $HOME' "double \$x" 'it'"'"'s'
## backslash-escapes
echo a\ b \$x \\ "a\"b"
## double-quote-keeps-newlines
s="$(printf 'a\nb')"; echo "$s"; echo $s
## ansi-c-quoting
echo $'tab\there' | cat -A
## empty-args
printf '[%s]' "" '' a; echo
## quote-removal-in-assignment
v="a b"'c d'; echo "$v"
## nested-quotes-in-subst
echo "$(echo "inner \"quoted\"")"
## locale-string
echo $"plain"
## special-chars-literal
echo '*' "?" '[a]' "{x,y}" '~'
## hash-comment
echo visible # hidden
## hash-inside-word
echo a#b "#c"
## line-continuation
echo one \
two
## semicolons-and-newlines
echo a; echo b
echo c
`,
);

export const globs = cases(
  "globbing",
  sh`
## star
touch a.txt b.txt c.log; echo *.txt
## question
touch a1 a2 a10; echo a?
## bracket
touch x1 x2 x3 y1; echo x[12] [!x]1
## no-match-literal
echo *.nothing
## nullglob
shopt -s nullglob; echo "[" *.nothing "]"
## failglob
echo start; shopt -s failglob; echo *.nothing; echo "status $?"
## dotfiles-hidden
touch .hidden shown; echo *; shopt -s dotglob; echo *
## globstar
mkdir -p a/b/c; touch a/1.md a/b/2.md a/b/c/3.md; shopt -s globstar; echo **/*.md
## extglob
shopt -s extglob
touch f.c f.h f.o; echo !(*.o); echo @(*.c|*.h)
## extglob-negation-case
shopt -s extglob
for f in a.c b.o; do case $f in !(*.o)) echo "keep $f";; esac; done; touch k.txt r.log; echo !(*.log)
## extglob-repeats
shopt -s extglob
touch a.js aa.js b.ts; echo +(a).js *(a|b).@(js|ts)
## sorted-order
touch B a C b; echo *
## glob-in-quotes
touch q1; echo "q*" q*
## directory-only
mkdir -p d1 d2; touch f1; echo */
## character-class
touch A1 b2 C3; echo [[:upper:]]*
## glob-in-for
touch one.sh two.sh; for f in *.sh; do echo "script $f"; done
## glob-pattern-var-unquoted
touch m1 m2; pat='m*'; ls $pat
## glob-with-path-prefix
mkdir -p src; touch src/a.ts src/b.ts; echo src/*.ts
## noglob
touch n1; set -f; echo n*; set +f; echo n*
`,
);

export const heredocs = cases(
  "heredocs",
  sh`
## basic
cat <<EOF
hello $((1+1))
EOF
## quoted-delimiter
x=val; cat <<'EOF'
no $x expansion $(echo here)
EOF
## dash-strips-tabs
cat <<-EOF
	indented
		twice
	EOF
## herestring
tr a-z A-Z <<< "shout"
## herestring-variable
v="multi word"; wc -w <<< "$v"
## to-variable
read -r -d '' text <<'EOF'
line one
line two
EOF
echo "$text"
## with-command-sub
cat <<EOF
today is $(echo someday)
EOF
## in-loop
for n in 1 2; do cat <<EOF
item $n
EOF
done
## into-file
cat > gen.txt <<EOF
generated
EOF
cat gen.txt
## two-heredocs
cat <<A; cat <<B
first
A
second
B
## escaped-dollar
cat <<EOF
cost \$5 and \\ backslash
EOF
## heredoc-to-while
while read -r a b; do echo "$b $a"; done <<EOF
1 one
2 two
EOF
`,
);

export const redirects = cases(
  "redirects",
  sh`
## stdout-file
echo hi > f; cat f
## append
echo a > f; echo b >> f; cat f
## stderr-file
ls nope 2> err.txt; echo "status $?"; grep -c 'nope' err.txt
## both-to-file
{ echo out; echo err >&2; } > all.txt 2>&1; sort all.txt
## amp-greater
{ echo out; echo err >&2; } &> all.txt; sort all.txt
## order-matters
{ echo err >&2; } 2>&1 >/dev/null | cat
## stderr-to-stdout-pipe
{ echo err >&2; } 2>&1 | tr a-z A-Z
## dev-null
echo gone > /dev/null; echo kept
## input-redirect
echo content > in.txt; tr a-z A-Z < in.txt
## fd-dup
exec 3>out3.txt; echo via-fd >&3; exec 3>&-; cat out3.txt
## read-fd
echo line > src.txt; exec 4<src.txt; read -r x <&4; exec 4<&-; echo "$x"
## noclobber
set -C; echo a > nc.txt; echo b > nc.txt 2>/dev/null; echo "status $?"; echo c >| nc.txt; cat nc.txt
## redirect-in-middle
echo > mid.txt start end; cat mid.txt
## block-redirect
{ echo one; echo two; } > block.txt; wc -l < block.txt
## dev-stdin
echo piped | cat /dev/stdin
## tee
echo teed | tee copy.txt; cat copy.txt
## process-substitution-read
diff <(echo a) <(echo a) && echo same
## process-substitution-paste
paste <(printf '1\n2\n') <(printf 'a\nb\n')
## missing-input-file
cat < missing.txt 2>/dev/null; echo "status $?"
## mkfifo
mkfifo p; (echo through-fifo > p &); cat p
## dev-urandom
head -c 16 /dev/urandom | wc -c
## dev-zero
head -c 5 /dev/zero | od -An -b
`,
);

export const substitution = cases(
  "substitution",
  sh`
## dollar-paren
echo "[$(echo inner)]"
## backticks
echo "[\`echo old\`]"
## trailing-newlines-stripped
x=$(printf 'a\n\n\n'); echo "[$x]"
## nested
echo $(echo $(echo deep))
## exit-status
x=$(exit 3); echo $?
## subst-in-assignment-no-split
x=$(echo "a   b"); echo "$x"
## subst-word-split
for w in $(echo "x y z"); do echo "[$w]"; done
## subst-file-read
echo content > f; echo "$(< f)"
## subst-stderr-not-captured
x=$(echo out; echo err >&2); echo "[$x]"
## subst-with-quotes
echo "$(echo "a \"quoted\" word")"
## subst-in-heredoc
cat <<EOF
$(seq 3 | paste -sd+)
EOF
## arithmetic-of-subst
echo $(( $(wc -l <<< $'a\nb\nc') * 2 ))
`,
);

export const pipelines = cases(
  "pipelines",
  sh`
## simple
echo hello | tr a-z A-Z
## multi-stage
printf '3\n1\n2\n' | sort -n | head -2 | tail -1
## exit-status-last
false | true; echo $?
## pipe-to-while-subshell
n=0; printf 'a\nb\n' | while read -r _; do ((n++)); done; echo $n
## lastpipe-like-process-sub
n=0; while read -r _; do ((n++)); done < <(printf 'a\nb\n'); echo $n
## sort-uniq-count
printf 'b\na\nb\nc\nb\n' | sort | uniq -c | sort -rn | head -1 | awk '{print $1, $2}'
## grep-count
printf 'x1\ny\nx2\n' | grep -c x
## cut-fields
echo "a:b:c" | cut -d: -f2
## awk-sum
printf '1\n2\n3\n' | awk '{s+=$1} END {print s}'
## sed-substitute
echo "hello world" | sed 's/world/there/'
## xargs
printf 'a\nb\n' | xargs echo got
## tee-and-count
printf 'x\ny\n' | tee /dev/null | wc -l
## head-closes-pipe
seq 1 100000 | head -3
## pipeline-negation
! echo x | grep -q y && echo no-y
## wc-words
echo "one two three" | wc -w
## tr-squeeze
echo "a   b    c" | tr -s ' '
## rev-lines
printf 'abc\n' | rev
## nl-numbering
printf 'a\nb\n' | nl -ba | tr -s ' \t' ' '
## paste-join
printf 'a\nb\nc\n' | paste -sd,
## sort-key
printf 'b 2\na 3\nc 1\n' | sort -k2 -n
## sort-unique
printf 'b\na\nb\n' | sort -u
## column-fields-awk
echo "k1=v1 k2=v2" | tr ' ' '\n' | awk -F= '{print $2}'
## uniq-count-width
printf 'b\na\nb\n' | sort | uniq -c
## sort-by-count-then-word
printf 'x\ny\ny\nz\nz\nw\n' | sort | uniq -c | sort -k1,1nr -k2
## sort-code-point-order
printf 'b\nB\na\n_\nA\n' | sort; printf 'b\nB\na\n_\n' | sort -f
## sort-check-quiet
printf 'a\nc\nb\n' | sort -C || echo "not sorted: $?"
## sort-key-to-end-of-line
printf 'x b z\nx a z\nx b a\n' | sort -k2
## wc-pipe-columns
printf 'one two\nthree\n' | wc
## diff-normal-format
diff <(printf 'a\nb\nc\nd\n') <(printf 'a\nc\nd\ne\nf\n'); echo "status $?"
## head-all-but-last
seq 5 | head -n -2
## xargs-one-per-line
echo a b c | xargs -n1 echo item
## xargs-replace-attached
printf 'x\ny\n' | xargs -I{} echo "<{}>"
## xargs-empty-input
printf '' | xargs echo ran; printf '' | xargs -r echo never; echo end
## jq-unique-sorted
echo '["b","a","B","b"]' | jq -c unique
## jq-group-by-sorted
echo '[{"t":"y","n":1},{"t":"x","n":2},{"t":"y","n":3}]' | jq -c 'group_by(.t) | map({t: .[0].t, n: (map(.n) | add)})'
## jq-csv-quotes
echo '[1,"a",true]' | jq -r @csv
## cut-output-delimiter
echo "a,b,c" | cut -d, -f1,3 --output-delimiter=' | '
## sed-extended-address
printf 'a1\nbb\nc22\n' | sed -nE '/^[a-z][0-9]+$/p'
## awk-printf-float-flags
awk 'BEGIN { printf "%06.2f|%+.1f|%.3e\n", 3.14159, 2, 12345.678 }'
## od-characters
printf 'hi\n' | od -c
## redirect-error-keeps-line
undefined_cmd arg 2>&1; echo "rc=$?"; declare -p nothere 2>&1
f() { :; }; unset -f f; type f 2>&1 | head -1; nope 2>err.txt; cat err.txt
## ansi-c-unicode-escapes
printf '%s\n' $'\U0001F600' $'\u00e9' $'\u41z' $'\x4g' | od -c
## ansi-c-nul-ends-string
x=$'a\0b'; echo \${#x} "$x"; y=$'p\x00q'; echo \${#y}
## bytes-dollar-quote-hex-dump
printf '%s' $'\377' $'\x80' $'\303\251' | od -An -tx1
## bytes-echo-e-hex-dump
echo -e '\xff\xfe\x00A' | od -An -tx1
## bytes-printf-escapes-hex-dump
printf '\xff\x7f\200\n' | od -An -tx1; printf '%b' '\xe9\n' | od -An -tx1
## bytes-printf-c-hex-dump
printf '%c%c' $'\377' 'é' | od -An -tx1
## bytes-length-of-raw
x=$'\xff\xfe'; printf '%s' "$x" | wc -c; y=$'\303\251'; echo \${#y}
`,
);
