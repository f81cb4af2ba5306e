/**
 * In a `case` pattern, quoted and backslash-escaped characters match themselves while the
 * rest stays a pattern: `"["*"]"` and `\[*\]` match `[section]`. just-bash expanded the
 * pattern to plain text first (escaping it only when every part was quoted), so the quoted
 * brackets became a bracket expression and the pattern never matched. The pattern is now
 * built the way `[[ x == pattern ]]` builds its right side.
 */
import type { Patch } from "./patch.ts";

export const casePatternQuoting: Patch = {
  name: "case-pattern-quoting",
  why: 'Quoted and escaped characters in a case pattern match literally: "["*"]" matches [section].',
  edits: [{ find: "let u=await _e(e,c);Vw(c)&&(u=On(u));", replace: "let u=await qw(e,c);" }],
  shows: [
    `x="[a]"; case $x in "["*"]") echo quoted;; *) echo other;; esac; case $x in \\[*\\]) echo escaped;; esac`,
    `p='*.txt'; case a.txt in $p) echo var-pattern;; esac; case '*' in "*") echo star;; esac; case ab in "a"*) echo prefix;; esac; case 'a?' in 'a?') echo q;; esac; case ab in 'a?') echo wrong;; *) echo right;; esac`,
  ],
};
