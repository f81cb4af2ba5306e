/**
 * `sed -E` reads the regular expressions of addresses (`/^[a-z]+@/p`) as extended too, as GNU
 * sed does; just-bash applied -E to `s///` only and read addresses as basic, where `+` is a
 * literal, so `sed -n -E '/^[a-z]+@/p'` printed nothing.
 */
import type { Patch } from "./patch.ts";

export const sedExtendedAddresses: Patch = {
  name: "sed-extended-addresses",
  why: "sed -E reads address regular expressions as extended, like those of s///.",
  edits: [
    {
      find: "case le.PATTERN:return this.advance(),{pattern:t.pattern||t.value};",
      replace: "case le.PATTERN:return this.advance(),{pattern:t.pattern||t.value,extendedRegex:this.extendedRegex};",
    },
    {
      find: 'i===""&&s?.lastPattern?i=s.lastPattern:i!==""&&s&&(s.lastPattern=i);let o=du(fu(i));',
      replace: 'i===""&&s?.lastPattern?i=s.lastPattern:i!==""&&s&&(s.lastPattern=i);let o=du(e.extendedRegex?i:fu(i));',
    },
  ],
  shows: [
    "printf 'ann@x.com\\nno\\n' | sed -n -E '/^[a-z]+@/p'",
    "printf 'a+b\\naab\\n' | sed -n '/a+b/p'",
    "printf '1\\nab\\n2\\n' | sed -E '/^(a|b)+$/d'",
  ],
};
