/** Parameter expansion: defaults, alternatives, errors, lengths, substrings, patterns, case, indirection. */
import { cases, sh } from "../sh.ts";

export const parameters = cases(
  "parameters",
  sh`
## default-unset-empty-set
unset u; e=; s=v; echo "[\${u:-d}] [\${e:-d}] [\${s:-d}] [\${u-d}] [\${e-d}]"
## assign-default
unset u; echo "\${u:=x} $u"; e=; echo "[\${e=y}] [\${e:=z}] $e"
## alternative
unset u; e=; s=v; echo "[\${u:+a}] [\${e:+a}] [\${s:+a}] [\${e+a}]"
## error-if-unset-message
unset u; (echo "\${u:?is required}") 2>&1 | sed 's/^bash: line [0-9]*: /bash: /'; echo done
## length
s=hello; echo \${#s}; u=héllo; echo \${#u}
## length-positional
set -- a b c; echo \${#}; echo \${#1}
## substring
s=abcdefgh; echo \${s:2} \${s:2:3} \${s: -3} \${s: -3:2} \${s:1:-2}
## substring-out-of-range
s=abc; echo "[\${s:5}] [\${s:1:10}]"
## substring-positional
set -- a b c d e; echo \${@:2:2} \${@: -1}
## prefix-suffix-removal
p=/usr/local/lib/libfoo.so.1; echo \${p#*/} \${p##*/} \${p%.*} \${p%%.*}
## removal-with-variable-pattern
f=archive.tar.gz; ext=.gz; echo \${f%$ext} \${f%"$ext"}
## replace
s=aXbXc; echo \${s/X/-} \${s//X/-} \${s/#a/A} \${s/%c/C} \${s//X}
## replace-with-slash
p=a/b/c; echo \${p//\//:}
## replace-glob-class
s=a1b22c333; echo \${s//[0-9]/#} \${s//+([0-9])/N}
## case-modification
s=hello; S=WORLD; echo \${s^} \${s^^} \${S,} \${S,,} \${s~~}
## case-toggle-each
set -- aB Cd; echo \${@~} \${*~~}; a=(xY Zw); echo "\${a[@]~~}"; s=hello; echo \${s^[l]} \${s~[h]}
## case-modification-pattern
s=banana; echo \${s^^[an]}
## indirection
ref=target; target=hit; echo \${!ref}
## indirection-array-ref
a=(x y); ref='a[@]'; echo "\${!ref}" "\${!ref:-unset}"
## indirection-default-unset
ref=nope; echo "\${!ref:-fallback}"
## prefix-names
vA=1; vB=2; echo \${!vA*} "\${!vB@}"
## transform-Q
s="it's"; echo \${s@Q}
## transform-U-L-u
s=hello; echo \${s@U} \${s@u}; S=HI; echo \${S@L}
## transform-a
declare -i n=1; a=(1); echo \${n@a} \${a@a}
## transform-E
s='a\tb'; echo "\${s@E}"
## star-empty-ifs
set -- a b c; IFS=; echo "\${*:-x}" "\${*}"
## star-colon-default-no-args
set --; IFS=; echo "[\${*:-x}] [\${@:-y}]"
## at-in-quotes
set -- "a b" c; for x in "$@"; do echo "[$x]"; done
## star-in-quotes-ifs
set -- a b c; IFS=-; echo "$*"; IFS=; echo "$*"
## positional-beyond-9
set -- 1 2 3 4 5 6 7 8 9 10 11; echo \${10} \${11} $10
## shift
set -- a b c d; shift 2; echo "$# $*"
## special-vars
f() { return 3; }; f; echo $?; echo $#; set -- x; echo $#
## dollar-dash-set
set -f; case $- in *f*) echo noglob-on;; esac
## nounset-default-ok
set -u; echo "\${undefined_var:-fine}"
## nounset-error
echo start; set -u; echo "$undefined_var"; echo after
## word-splitting-default
s="a  b   c"; for w in $s; do echo "[$w]"; done
## word-splitting-custom-ifs
s="a:b::c"; IFS=:; for w in $s; do echo "[$w]"; done
## word-splitting-ifs-whitespace-mix
s=" a : b "; IFS=" :"; set -- $s; echo $#; printf '[%s]' "$@"; echo
## quoted-no-split
s="a  b"; echo "$s"; echo $s
## empty-var-disappears
e=; set -- $e x "$e"; echo $#
## glob-in-var
touch g1 g2; p='g*'; echo $p "$p"
## tilde
HOME=/home/me; echo ~ ~/x "~"
## assignment-no-split
s="a  b"; t=$s; echo "$t"
## concat
a=foo; echo "\${a}bar" $a-baz "\${a}_x"
## nested-default
unset a b; echo \${a:-\${b:-deep}}
## default-with-spaces-quoted
unset u; printf '[%s]\n' "\${u:-a b}" \${u:-c d}
## length-of-array-vs-string
a=(aa bbb); echo \${#a} \${#a[@]} \${#a[1]}
## pattern-with-star-longest
s=a.b.c.d; echo \${s#*.} \${s##*.} \${s%.*} \${s%%.*}
## strip-trailing-slashes
p=dir///; echo "\${p%%+(/)}" "\${p%/}"
## basename-dirname-idiom
f=/a/b/c.txt; echo "\${f##*/}" "\${f%/*}"
## extension-idiom
f=report.final.pdf; echo "\${f##*.}" "\${f%.*}"
## trim-whitespace-idiom
s="   padded  "; s="\${s#"\${s%%[![:space:]]*}"}"; s="\${s%"\${s##*[![:space:]]}"}"; echo "[$s]"
## upper-first-each-word
for w in hello big world; do printf '%s ' "\${w^}"; done; echo
## var-with-dollar-in-value
s='$HOME'; echo "$s"
## unset-vs-empty-test
e=; [[ -v e ]] && echo e-set; [[ -v nope ]] || echo nope-unset
## declare-nameref
x=1; declare -n r=x; r=5; echo $x
## local-scope
x=global; f() { local x=local; echo $x; }; f; echo $x
## dynamic-scope
f() { echo "$v"; }; g() { local v=from-g; f; }; g
## export-to-child
export E1=yes; bash -c 'echo $E1'
## env-prefix-command
V=temp bash -c 'echo $V'; echo "[\${V:-}]"
## readonly-error-message
echo start; readonly r=1; r=2 2>/dev/null; echo "r=$r"
## error-if-unset-default-message
(: "\${u:?}") 2>&1; echo "status $?"
## transform-Q-quote
v="don't"; echo "\${v@Q}"; eval "w=\${v@Q}"; echo "$w"
## positional-count-length
set -- a b "c d"; echo \${#@} \${#*}
## shift-past-end-quiet
set -- a b; shift 3; echo "rc $?" $#
## substring-before-start
s=abcdef; echo "[\${s: -10}]" "[\${s: -10:2}]" "[\${s: -6}]" \${s:(-3)} "[\${s:7}]"
## bash-versinfo-guard
(( BASH_VERSINFO[0] >= 4 )) && echo modern; echo \${#BASH_VERSINFO[@]}; [[ \${BASH_VERSINFO[4]} == release ]] && echo release
`,
);
