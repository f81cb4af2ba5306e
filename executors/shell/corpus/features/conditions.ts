/** Conditionals: [[ ]], test and [, string, number and file tests, regex matching. */
import { cases, sh } from "../sh.ts";

export const conditions = cases(
  "conditions",
  sh`
## string-equal
[[ abc == abc ]] && echo eq; [[ abc != abd ]] && echo ne
## string-glob-match
[[ hello.txt == *.txt ]] && echo glob; [[ hello.txt == "*.txt" ]] || echo literal
## string-less
[[ apple < banana ]] && echo lt; [[ b > a ]] && echo gt
## empty-tests
e=; [[ -z $e ]] && echo empty; [[ -n x ]] && echo nonempty
## regex-match
[[ "v1.2.3" =~ ^v([0-9]+)\.([0-9]+)\.([0-9]+)$ ]] && echo "\${BASH_REMATCH[1]} \${BASH_REMATCH[3]}"
## regex-var
re='^[a-z]+@[a-z]+\.com$'; [[ me@ex.com =~ $re ]] && echo email
## regex-no-match-status
[[ abc =~ [0-9] ]]; echo $?
## and-or-not
[[ -n a && ! -z b || 1 -eq 0 ]] && echo combined
## grouping
[[ ( 1 -eq 1 || 1 -eq 2 ) && 2 -eq 2 ]] && echo grouped
## numeric-ops
[[ 3 -lt 5 && 5 -le 5 && 7 -gt 6 && 7 -ge 7 && 1 -ne 2 ]] && echo nums
## test-brackets
[ "a" = "a" ] && echo same; [ 2 -gt 1 ] && echo bigger; test -n "x" && echo test-n
## test-and-or-flags
[ 1 -eq 1 -a 2 -eq 2 ] && echo a-flag; [ 1 -eq 2 -o 2 -eq 2 ] && echo o-flag
## test-missing-operand
[ -n ]; echo $?; [ ]; echo $?
## test-int-error
[ abc -eq 1 ] 2>/dev/null; echo $?
## file-tests
mkdir d; touch f; [[ -d d ]] && echo dir; [[ -f f ]] && echo file; [[ -e nope ]] || echo missing
## file-size-test
touch empty; echo data > full; [[ -s full ]] && echo nonempty; [[ -s empty ]] || echo zero
## file-newer
echo a > old; echo b > new; touch -d '2020-01-01' old; [[ new -nt old ]] && echo newer
## file-readable-writable
touch f; [[ -r f && -w f ]] && echo rw
## symlink-test
touch t; ln -s t l; [[ -L l ]] && echo link; [[ -L t ]] || echo notlink
## var-set-test
x=1; [[ -v x ]] && echo set; unset x; [[ -v x ]] || echo unset
## quoted-rhs-literal
p='a*'; [[ abc == $p ]] && echo pattern; [[ abc == "$p" ]] || echo literal
## nocasematch
shopt -s nocasematch; [[ HELLO == hello ]] && echo ci
## extglob-in-cond
[[ file.tar.gz == *.@(gz|bz2) ]] && echo compressed
## arithmetic-cond
x=10; (( x > 5 && x < 20 )) && echo range
## if-command-status
if grep -q b <<< "abc"; then echo has-b; fi
## compound-test-chain
f=conf; [[ -f $f ]] || echo "no $f"; [[ -f $f ]] && echo never || echo fallback
## numeric-string-compare-difference
[[ 10 < 9 ]] && echo lexical; [[ 10 -lt 9 ]] || echo numeric
## cond-with-command-sub
[[ $(echo yes) == yes ]] && echo subst
## test-string-ops-single
[ "abc" \< "abd" ] && echo before
## test-not-an-integer
[ 1 -eq x ]; echo $?; test abc -lt 3; echo $?
## test-integer-past-64-bits
[ 9223372036854775808 -gt 0 ]; echo $?; test 9223372036854775807 -gt 9223372036854775806 && echo big
## bracket-missing-close
[ 1 -eq 1; echo $?
`,
);
