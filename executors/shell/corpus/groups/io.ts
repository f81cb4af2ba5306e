/** Corpus scripts: pipes, redirects, heredocs (scripts.ts lists every group in order). */
import { type CorpusScript, sh } from "../sh.ts";
import { poem } from "./fixtures.ts";

export const pipes: CorpusScript[] = [
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

export const redirects: CorpusScript[] = [
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

export const heredocs: CorpusScript[] = [
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
