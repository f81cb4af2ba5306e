/** Indexed and associative arrays: assignment forms, expansion, slicing, keys, attributes. */
import { cases, sh } from "../sh.ts";

export const arrays = cases(
  "arrays",
  sh`
## indexed-basic
a=(one two three); echo "\${a[0]} \${a[2]} \${#a[@]}"
## indexed-all-quoted
a=("x y" z); for e in "\${a[@]}"; do echo "[$e]"; done
## indexed-star-joined
a=(1 2 3); IFS=,; echo "\${a[*]}"
## indexed-sparse
a=([2]=b [5]=e); echo "\${#a[@]} \${!a[@]} \${a[5]}"
## indexed-append
a=(1); a+=(2 3); a[10]=x; echo "\${a[@]} | \${!a[@]}"
## indexed-negative
a=(1 2 3 4); echo "\${a[-1]} \${a[-2]}"
## indexed-unset-element
a=(a b c); unset 'a[1]'; echo "\${a[@]} \${#a[@]} \${!a[@]}"
## indexed-slice
a=(a b c d e); echo "\${a[@]:1:3}" "|" "\${a[@]:3}" "|" "\${a[@]: -2}"
## indexed-length-of-element
a=(hello hi); echo "\${#a[0]} \${#a[1]}"
## declare-a-quoted-space
declare -a a=('x y' "z w"); echo "\${#a[@]} [\${a[0]}] [\${a[1]}]"
## declare-a-keyed-quoted
declare -a a=([0]='x y' [3]="p q"); echo "[\${a[0]}] [\${a[3]}]"
## declare-A-quoted-space
declare -A m=([k]='x y' [j]="p q"); echo "[\${m[k]}] [\${m[j]}]"
## declare-A-quoted-key
declare -A m=(["a b"]=1 ['c d']=2); echo "\${m[a b]} \${m[c d]}"
## assoc-basic
declare -A m; m[one]=1; m[two]=2; echo "\${m[one]} \${m[two]} \${#m[@]}"
## assoc-keys-sorted
declare -A m=([b]=2 [a]=1 [c]=3); for k in "\${!m[@]}"; do echo "$k=\${m[$k]}"; done | sort
## assoc-missing-key
declare -A m=([a]=1); echo "[\${m[zz]}] [\${m[zz]:-none}]"
## assoc-test-key
declare -A m=([a]=1); [[ -v m[a] ]] && echo has-a; [[ -v m[b] ]] || echo no-b
## assoc-unset-key
declare -A m=([a]=1 [b]=2); unset 'm[a]'; echo "\${#m[@]} \${!m[@]}"
## assoc-slice
declare -A m=([only]=v); echo "\${m[@]:0:3}"
## assoc-slice-offsets
declare -A m=([only]=v); echo "[\${m[@]:1}] [\${m[@]:2}] [\${m[*]: -1}]"
## assoc-append
declare -A m=([a]=1); m+=([b]=2); m[a]+=x; echo "\${m[a]} \${m[b]}"
## assoc-variable-key
declare -A m; k="some key"; m[$k]=v; echo "\${m[$k]} \${m["some key"]}"
## assoc-count-words
declare -A n; for w in a b a c b a; do ((n[$w]++)); done; for k in a b c; do echo "$k \${n[$k]}"; done
## readonly-assoc-assign
echo start; declare -rA m=([a]=1); m[b]=2; echo "after $? \${m[a]}"
## readonly-indexed-assign
echo start; readonly -a r=(1 2); r[0]=9; echo "after \${r[0]}"
## readonly-scalar-continue
echo start; readonly x=1; x=2; echo "still running $x"
## array-from-command
mapfile -t lines < <(printf 'a\nb\nc\n'); echo "\${#lines[@]} \${lines[1]}"
## readarray-delim
readarray -d , -t parts <<< "x,y,z"; echo "\${#parts[@]} [\${parts[2]}]"
## read-a
read -ra w <<< "one two  three"; echo "\${#w[@]} \${w[2]}"
## array-in-function-args
f() { echo "$#: $*"; }; a=("a b" c); f "\${a[@]}"; f \${a[@]}
## array-copy
a=(1 "2 3" 4); b=("\${a[@]}"); echo "\${#b[@]} \${b[1]}"
## array-join-ifs
a=(x y z); (IFS=:; echo "\${a[*]}")
## array-printf
a=(3 1 2); printf '%s\n' "\${a[@]}" | sort
## array-pattern-ops
a=(file.txt note.md); echo "\${a[@]%.*}" "\${a[@]/#/pre-}" "\${a[@]^^}"
## array-element-upper-each
a=(ab cd); echo "\${a[@]^}"
## array-keys-indexed
a=(x y z); echo "\${!a[@]}"
## array-keys-star-ifs
a=(x y z); IFS=''; echo "\${!a[*]}"
## array-length-empty
a=(); echo "\${#a[@]}"; b=(""); echo "\${#b[@]}"
## array-unset-whole
a=(1 2); unset a; echo "[\${a[@]}] \${#a[@]}"
## declare-p-indexed
a=(1 "two words"); declare -p a
## declare-p-assoc
declare -A m=([k]="v w"); declare -p m
## local-array
f() { local -a v=("$@"); echo "\${#v[@]}"; }; f a "b c" d
## array-scalar-is-element-zero
s=hello; echo "\${s[0]} \${#s[@]}"; a=(x y); echo "$a"
## array-plus-equals-string
a=(x y); a+=z; echo "\${a[@]}"
## array-index-expression
a=(a b c d); i=1; echo "\${a[i*2]} \${a[$((i+2))]}"
## array-index-arith-expansion
a=(a b c d e); i=1; echo "\${#a[$((i))]} \${a[$((i*4))]:0:1}"; a[$((i+1))]=C; echo "\${a[@]}"
## nested-array-loop
declare -A deps=([app]="lib util" [lib]="util"); for k in app lib; do for d in \${deps[$k]}; do echo "$k -> $d"; done; done
## array-contains
a=(alpha beta gamma); [[ " \${a[*]} " == *" beta "* ]] && echo found
## array-reverse
a=(1 2 3 4); for ((i=\${#a[@]}-1; i>=0; i--)); do printf '%s ' "\${a[i]}"; done; echo
## array-dedupe
declare -A seen; out=(); for x in b a b c a; do [[ \${seen[$x]} ]] || { seen[$x]=1; out+=("$x"); }; done; echo "\${out[@]}"
## array-split-string
IFS=, read -ra f <<< "a,b,,d"; echo "\${#f[@]}"; printf '[%s]' "\${f[@]}"; echo
## array-set-positional
a=(p q r); set -- "\${a[@]}"; echo "$# $2"
## array-element-lower-each
a=(AB Cd EF); echo "\${a[@],,}" "\${a[*],}"
## declare-p-assoc-quotes
declare -A m=([k]='say "hi"'); declare -p m
## assoc-hash-order-keys
declare -A m=([one]=1 [two]=2 [three]=3 [four]=4 [five]=5); for k in "\${!m[@]}"; do echo "$k=\${m[$k]}"; done
## assoc-hash-order-values
declare -A m; m[x]=1; m[y]=2; m[z]=3; echo "\${m[@]}"; echo "\${m[*]}"
## assoc-hash-order-word-count
declare -A c; for w in the cat sat on the mat the end; do ((c[$w]++)); done; for k in "\${!c[@]}"; do echo "$k \${c[$k]}"; done
## assoc-hash-order-unset-reinsert
declare -A m=([a]=1 [b]=2); unset 'm[a]'; m[a]=3; m[c]=4; m[b]=5; declare -p m
## assoc-hash-order-slice
declare -A m=([k1]=v1 [k2]=v2 [k3]=v3 [k10]=x [apple]=y [banana]=z); echo "\${!m[@]}"; echo "\${m[@]:1:2}"; echo "\${m[@]: -2}"
## assoc-hash-order-utf8-keys
declare -A m=([été]=1 [naïve]=2 [日本]=3 [plain]=4); echo "\${!m[@]}"
## assoc-hash-order-many
declare -A m; for i in $(seq 300); do m[key$i]=$i; done; echo "\${!m[@]}" | tr ' ' '\n' | head -5; echo "\${#m[@]}"
## star-join-in-assignment
arr=(a b c); IFS=, x="\${arr[*]}"; echo "$x"; y=\${arr[@]}; echo "$y"
## star-join-in-here-string
a=(x y); IFS=:; cat <<< "\${a[*]}"; cat <<END
\${a[*]} \${a[@]}
END
`,
);
