/** printf and echo: conversions, widths, big and negative numbers, escapes, raw bytes. */
import { cases, sh } from "../sh.ts";

export const printf = cases(
  "printf",
  sh`
## d-basic
printf '%d %d %d\n' 1 -2 +3
## d-width-flags
printf '[%5d] [%-5d] [%05d] [%+d] [% d]\n' 42 42 42 42 42
## d-big
printf '%d\n' 9223372036854775807 -9223372036854775808
## d-too-big
printf '%d\n' 18446744073709551615 2>&1; echo "status $?"
## u-negative
printf '%u\n' -42 -1
## u-big
printf '%u\n' $((1<<32)) $((1<<63))
## x-negative
printf '%x %X %o\n' -42 -42 -42
## x-big
printf '%x %#x %#o\n' $((1<<40)) 255 8
## i-conversion
printf '%i %i\n' 12 -7
## d-hex-octal-args
printf '%d %d %d\n' 0x1f 010 -0x10
## d-char-arg
printf '%d %d %d\n' "'A" '"a' "'é"
## d-quote-alone
printf '%d\n' \'; echo "status $?"
## d-invalid
printf '%d\n' abc 2>/dev/null; echo "status $?"
## d-partial
printf '%d\n' 12abc 2>&1; echo "status $?"
## d-empty
printf '[%d]\n' ''
## s-width-precision
printf '[%10s] [%-10s] [%.2s] [%5.1s]\n' abc abc abc abc
## s-star-width
printf '[%*s] [%-*s] [%.*s]\n' 6 ab 6 ab 2 abcdef
## reuse-format
printf '%s=%s\n' a 1 b 2 c
## no-args
printf '%s|%d|%x\n'
## percent-literal
printf '100%%\n'
## c-conversion
printf '%c%c%c\n' hello world x
## c-utf8
printf '%c|%c\n' é ü | od -An -b
## b-conversion
printf '%b\n' 'a\tb' 'c\nd' '\0101'
## b-stop
printf '%b|\n' 'one\ctwo'; echo
## q-conversion
printf '%q\n' 'a b' "it's" '$x' ''
## f-conversion
printf '%.2f %.0f %5.1f %e\n' 3.14159 2.5 9.96 12345.678
## f-integer-arg
printf '%.3f\n' 7
## g-conversion
printf '%g %g %g\n' 100000 1000000 0.0001
## escapes-in-format
printf 'tab\there\nnew\\line\n'
## octal-escape
printf '\101\102\103\n'
## hex-escape
printf '\x41\x42\n'
## unicode-escape
printf '\u00e9\u20ac\n'
## hex-escape-high-byte
printf '\xff' | od -An -b
## octal-escape-high-byte
printf '\377\200' | od -An -b
## c-high-byte
printf '%c' $'\377' | od -An -b
## v-assign
printf -v out '%05d' 42; echo "$out"
## v-array
declare -a arr; printf -v 'arr[1]' '%s' x; echo "\${arr[1]}"
## time-format-utc
TZ=UTC printf '%(%Y-%m-%d %H:%M:%S)T\n' 0
## time-format-tz
TZ=Asia/Tokyo printf '%(%Y-%m-%d %H:%M)T\n' 86400
## time-format-epoch-seconds
printf '%(%s)T\n' 1700000000
## dash-dash
printf -- '-%s-\n' x
## missing-arg-number
printf '%d and %d\n' 5
## sign-space
printf '%+5d|%-+5d|\n' 7 7
## precision-int
printf '%.3d|%8.3d\n' 5 5
## string-to-int-conversion
printf '%s %d\n' 010 010
## echo-e
echo -e 'a\tb\nc'
## echo-e-hex-high
echo -e '\xff' | od -An -b
## echo-e-octal
echo -e '\0101\061'
## echo-n
echo -n one; echo two
## echo-E
echo -E 'a\nb'
## echo-dash-combined
echo -ne 'x\ty\n'
## echo-not-option
echo -z hi; echo -- hi
## echo-backslash-c
echo -e 'keep\cdrop'; echo next
## dollar-single-quote
echo $'a\tb' $'\x41' $'\101' $'\u00e9'
## dollar-single-quote-high-byte
printf %s $'\377' | od -An -b
## dollar-single-quote-escape-set
printf '%s\n' $'q\'q' $'back\\slash' $'\e' | od -c | head -2
## dollar-single-quote-ctrl
printf %s $'\cA' | od -An -b
## f-round-half-even
printf '%.0f %.0f %.0f %.1f %.2f\n' 0.5 1.5 2.5 0.25 1.005
## e-round-half-even
printf '%.0e %.2e\n' 2.5 1.125
## unsigned-max-hex
printf '%x %X %o %u\n' 18446744073709551615 18446744073709551615 18446744073709551615 18446744073709551615
## unsigned-out-of-range
printf '%u|%x\n' -18446744073709551616 99999999999999999999 2>&1; echo "status $?"
## invalid-number-each
printf '%d %d %s\n' 1x 2y z 2>&1; echo "status $?"
## invalid-number-per-pass
printf '%d\n' abc x 2>&1 | cat
## c-empty-is-nul
printf '%c|%c|%c\n' hello 1 '' | od -c
## invalid-number-to-file
printf '%d\n' 5z 2>err.txt; echo "status $?"; cat err.txt
## g-small-exponent
printf '%g %g %g %g\n' 1e-5 0.000012345 0.0001 1e100
## g-flags-width
printf '%G|%.3g|%#g|%10.2g|%-8g|%g\n' 1e-10 3.14159 1 0.000123 2.5 0
## inf-nan
printf '%f %e %g %F|%6.2f|%-5g|\n' inf -inf nan INF infinity -Inf
## time-zone-names
for z in UTC America/New_York Europe/London Europe/Berlin Asia/Kolkata Asia/Tokyo Asia/Dubai Australia/Sydney; do TZ=$z printf '%(%Z %z)T|' 0; TZ=$z printf '%(%Z)T\n' 1720000000; done
## time-zone-date
for z in UTC America/New_York Asia/Kolkata Europe/Paris; do TZ=$z date -d @1720000000 +'%Z %z %H'; done
## q-which-characters
printf '%q\n' 'safe-_./:@%+=' 'a,b' 'x]^' '#a' 'a#' '~' 'a~' 'a=~' 'k:~' '{}!'
## q-command-line
args=(--name="a b" -x 'it'"'"'s'); printf '%q ' "\${args[@]}"; echo
## b-width-precision
printf '%5b|%-5b|%.2b|%b|\n' 'a\tb' x 'abc' 'q\n'
`,
);
