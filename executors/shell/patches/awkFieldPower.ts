/**
 * In awk `$` binds tighter than `^`: `$1^$2` is `($1)^($2)` (`echo 2 10 | awk '{print $1^$2}'`
 * prints 1024 in mawk, gawk and POSIX awk). just-bash read it as `$(1^$2)`, the first field.
 */
import type { Patch } from "./patch.ts";

export const awkFieldPower: Patch = {
  name: "awk-field-power",
  why: "awk's $ binds tighter than ^: $1^$2 is ($1)^($2).",
  edits: [
    {
      find: "parseFieldIndexPower(){let t=this.parseFieldIndexPrimary();if(this.check(k.CARET)){",
      replace: "parseFieldIndexPower(){let t=this.parseFieldIndexPrimary();if(!1&&this.check(k.CARET)){",
    },
  ],
  shows: ["echo '2 10' | awk '{print $1^$2, $2^2, 2^3^2, $(1+1)}'"],
};
