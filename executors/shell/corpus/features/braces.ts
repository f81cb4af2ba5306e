/** Brace expansion: lists, ranges, steps, nesting, and its order against parameter expansion. */
import { cases, sh } from "../sh.ts";

export const braces = cases(
  "braces",
  sh`
## list
echo a{b,c,d}e
## range-numbers
echo {1..5} {5..1}
## range-letters
echo {a..e} {e..a}
## range-step
echo {0..20..5} {10..1..3}
## range-padding
echo {01..10} {001..3}
## range-negative
echo {-3..3} {3..-2..2}
## nested
echo {a,b{1,2},c}
## cartesian
echo {a,b}{1,2}{x,y}
## with-variable-first
a=A; echo {$a,b}_{c,d}
## variable-name-suffix
v1=one v2=two; echo $v{1,2} x{$v1,$v2}y
## variable-not-range
n=3; echo {1..$n}
## variable-in-list
x=1 y=2; echo {$x,$y}
## quoted-not-expanded
echo "{a,b}" '{a,b}' \{a,b\}
## single-item-not-expanded
echo {a} {a,}x
## empty-items
echo x{,-y}
## prefix-suffix-path
echo /usr/{bin,lib}/tool
## mkdir-tree
mkdir -p proj/{src,test}/{main,util}; find proj -type d | sort
## in-for-loop
for f in file{1..3}.txt; do echo "$f"; done
## with-glob-later
touch x1 x2; echo x{1,2}*
## range-invalid
echo {1..a} {a..1}
## comma-escaped
echo {a\,b,c}
## comma-quoted
echo {"x,y",z} x{\,,y}
## dollar-brace-not-brace
v=val; echo \${v} {\${v},x}
## large-sequence-count
echo {1..1000} | wc -w
## cp-backup-idiom
echo config.yml > config.yml; cp config.yml{,.bak}; ls config.yml*
## range-mixed-case
echo {X..c} | wc -w
## brace-after-assignment
a={x,y}; echo "$a"
## brace-in-array
arr=({a,b}{1,2}); echo "\${#arr[@]} \${arr[3]}"
## quoted-suffix-with-blank
f() { echo "$#:$*"; }; f {a,b}" "c; echo {a,b}'x y' {1,2}\ z
## loop-over-quoted-paths
for f in {src,test}"/my file"; do echo "[$f]"; done
`,
);
