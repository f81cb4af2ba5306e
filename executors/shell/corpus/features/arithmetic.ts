/** Arithmetic: `$(( ))`, `(( ))`, `let`, `declare -i`, bases, 64-bit wrap-around, errors. */
import { cases, sh } from "../sh.ts";

export const arithmetic = cases(
  "arithmetic",
  sh`
## add-sub-mul
echo $((2+3)) $((10-7)) $((6*7)) $((2 + 3 * 4)) $(((2 + 3) * 4))
## div-mod-signs
echo $((7/2)) $((-7/2)) $((7/-2)) $((7%3)) $((-7%3)) $((7%-3))
## power
echo $((2**10)) $((3**0)) $((0**0)) $((-2**3)) $((2**62))
## power-wraps
echo $((2**63)) $((2**64)) $((3**40)) $((7**30))
## shift-left-31-32
echo $((1<<31)) $((1<<32)) $((1<<62)) $((1<<63))
## shift-count-mod-64
echo $((1<<64)) $((1<<65)) $((5<<-1)) $((5>>-1)) $((-8>>70))
## shift-right-negative
echo $((-8>>1)) $((-1>>10)) $((-9223372036854775808>>63))
## int64-max-min
echo $((9223372036854775807)) $((-9223372036854775807-1)) $((9223372036854775807+1))
## int64-literal-wraps
echo $((9223372036854775808)) $((18446744073709551615)) $((99999999999999999999))
## int64-mul-overflow
echo $((4294967296*4294967296)) $((3037000500*3037000500)) $((-9223372036854775807*3))
## int64-min-div-minus-one
echo $((-9223372036854775808/-1)) $((-9223372036854775808%-1))
## negate-min
echo $((-(-9223372036854775808))) $((~9223372036854775807))
## hex-octal-binary
echo $((0x1F)) $((0XfF)) $((017)) $((2#1011)) $((8#777)) $((16#dead))
## hex-64-bit
echo $((0x7fffffffffffffff)) $((0xffffffffffffffff)) $((0x8000000000000000)) $((0x10000000000000000))
## base-64-digits
echo $((64#_)) $((64#@)) $((36#zz)) $((62#Z)) $((36#Z))
## base-wraps
echo $((16#ffffffffffffffffff)) $((2#1111111111111111111111111111111111111111111111111111111111111111))
## bitwise
echo $((12&10)) $((12|10)) $((12^10)) $((~0)) $((~5)) $((-1&255))
## bitwise-64
echo $((0xff00000000 | 0xff)) $((1<<40 & 1<<40)) $(( (1<<63) ^ -1 ))
## comparisons
echo $((3<5)) $((5<3)) $((3<=3)) $((4>=5)) $((2==2)) $((2!=2))
## logical
echo $((1&&0)) $((1||0)) $((0||0)) $((!0)) $((!7)) $((3&&4))
## ternary
x=5; echo $((x>3 ? 10 : 20)) $((x<3 ? 10 : x>4 ? 30 : 40))
## comma
echo $((a=1, b=2, a+b))
## assign-ops
x=10; ((x+=5)); ((x-=3)); ((x*=2)); ((x/=4)); ((x%=4)); echo $x
## assign-bit-ops
x=6; ((x<<=2)); echo $x; ((x>>=1)); echo $x; ((x&=5)); echo $x; ((x|=8)); echo $x; ((x^=1)); echo $x
## assign-shift-let-for
y=3; let 'y<<=2' 'y|=1'; echo $y; for ((i=1; i<=64; i<<=2)); do printf '%s ' $i; done; echo
## pre-post-increment
i=5; echo $((i++)) $i $((++i)) $i $((i--)) $i $((--i)) $i
## increment-wraps
x=9223372036854775807; ((x++)); echo $x; ((x--)); echo $x
## unset-is-zero
unset n; echo $((n+1)) $((n*5))
## empty-is-zero
e=; echo $((e+3))
## variable-holds-expression
a='2+3'; echo $((a*2)) $(($a*2))
## variable-chain
a=b; b=c; c=7; echo $((a+1))
## variable-octal-value
x=010; y=0x10; echo $((x)) $((y)) $((x+y))
## dollar-inside
n=4; echo $(( $n * $n )) $(( n * n ))
## nested
echo $(( $((2+3)) * $((1+1)) ))
## command-sub-inside
echo $(( $(echo 6) * 7 ))
## whitespace
echo $((   1   +   2   ))
## arith-command-status
((0)); echo $?; ((5)); echo $?; ((-1)); echo $?
## arith-command-if
x=3; if ((x > 2)); then echo big; else echo small; fi
## arith-while
i=0; while ((i < 5)); do ((i++)); done; echo $i
## arith-for
for ((i=0, j=10; i<j; i+=3, j-=2)); do echo "$i $j"; done
## arith-for-empty-parts
i=0; for ((;;)); do ((i++ >= 3)) && break; done; echo $i
## let-basic
let a=5+2 b=a*3; echo $a $b
## let-status
let x=0; echo $?; let x=1; echo $?
## let-quoted
let "y = 3 * (4 + 1)"; echo $y
## let-increment
n=1; let n++ n++; echo $n
## declare-integer
declare -i n; n=5+5; echo $n; n+=3; echo $n; n=abc; echo $n
## declare-integer-big
declare -i n=2**62; n+=2**62; echo $n
## integer-string-concat
declare -i n=4; n+=1; s=4; s+=1; echo $n $s
## array-index-arith
a=(10 20 30 40); i=1; echo \${a[i+1]} \${a[$i*2]} \${a[-1]}
## array-element-arith
a=(1 2 3); ((a[1]+=10)); echo \${a[@]}; echo $((a[0]+a[2]))
## assoc-element-arith
declare -A m=([x]=5); ((m[x]++)); ((m[y]=m[x]*2)); echo \${m[x]} \${m[y]}
## negative-numbers
echo $((-5)) $((- -5)) $((+5)) $((-(3-5)))
## precedence
echo $((2+3*4**2/8%5)) $((1<<2+1)) $((5&3|4^1))
## unary-minus-power
echo $((-2**2)) $(((-2)**2))
## division-by-zero-status
(( 1/0 )) 2>/dev/null; echo "status $?"
## exponent-negative-status
(( 2**-1 )) 2>/dev/null; echo "status $?"
## random-range
r=$((RANDOM % 10)); ((r >= 0 && r < 10)) && echo in-range
## seconds-nonnegative
((SECONDS >= 0)) && echo ok
## counter-loop-sum
s=0; for i in {1..100}; do ((s += i)); done; echo $s
## factorial
f=1; for ((i=2; i<=20; i++)); do ((f *= i)); done; echo $f
## factorial-overflow
f=1; for ((i=2; i<=25; i++)); do ((f *= i)); done; echo $f
## fibonacci-large
a=0; b=1; for ((i=0; i<90; i++)); do ((t=a+b, a=b, b=t)); done; echo $a
## hex-format-roundtrip
x=$((16#7f)); printf '%x %d\n' $x $x
## arith-in-string
n=3; echo "n squared is $((n*n))"
## arith-in-index-of-string
s=abcdef; echo \${s:$((1+1)):2}
## test-eq-large
[[ 9223372036854775807 -eq 9223372036854775806 ]] && echo eq || echo ne
## test-gt-large
[ 9223372036854775807 -gt 9223372036854775806 ] && echo gt || echo le
## test-arith-operands
x=3; [[ x+1 -eq 4 ]] && echo four; [[ 2*3 -lt 7 ]] && echo lt
## test-lt-negative
[[ -5 -lt -3 ]] && echo yes; [ -5 -ge -3 ] || echo no
## bool-from-compare
a=5 b=7; max=$(( a > b ? a : b )); echo $max
## modular-exponent
r=1; b=7; e=13; m=1000000007; while ((e > 0)); do ((e & 1)) && ((r = r * b % m)); ((b = b * b % m, e >>= 1)); done; echo $r
## gcd
a=1071 b=462; while ((b)); do ((t=b, b=a%b, a=t)); done; echo $a
## count-bits
n=255; c=0; while ((n)); do ((c += n & 1, n >>= 1)); done; echo $c
## percent-calc
done_=37 total=120; echo "$(( done_ * 100 / total ))%"
## bytes-to-kib
size=1536000; echo "$(( size / 1024 )) KiB $(( (size % 1024) * 10 / 1024 ))"
## error-division-message
echo $(( 5 % 0 ))
echo "next line $?"
## error-division-in-group
echo $(( 4 * (2 / 0) )); echo same line
echo next
## error-division-operand-after
echo $((1/0 + 5))
echo end
## error-exponent-message
echo $(( 2 ** -1 ))
echo end
## error-arith-command-message
(( 1/0 )); echo "rc=$?"; (( x = 1 + )); echo "rc=$?"
## error-let-message
let 'a = 1/0'; echo "rc=$?"
## error-operand-expected
echo $(( 1 +* 2 )); echo same
echo $(( 1 + ))
echo end
## error-syntax-in-expression
echo $(( a b ))
echo $(( 1 2 + ))
echo end
## error-value-too-great
echo $(( 08 ))
echo $(( 2#12 ))
echo end
## error-in-subshell
( echo $((1/0)); echo in ); echo "after $?"
## error-in-loop-abandons-line
for i in 1 2; do echo $((i/0)); done; echo same
echo next
## error-empty-expression
echo "[$(( ))]" "[$((  ))]"
`,
);
