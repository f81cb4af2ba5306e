/** Corpus scripts: fileCommands (scripts.ts lists every group in order). */
import { type CorpusScript, sh } from "../sh.ts";
import { salesCsv } from "./fixtures.ts";

export const fileCommands: CorpusScript[] = [
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
