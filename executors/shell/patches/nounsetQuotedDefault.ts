/**
 * Under `set -u`, `"${x:-default}"` (a word that is only that, in double quotes) expands
 * the default instead of failing: reading a variable to test it is not a use. just-bash's
 * fast path for this word shape read the variable with the unbound check on.
 */
import type { Patch } from "./patch.ts";

export const nounsetQuotedDefault: Patch = {
  name: "nounset-quoted-default",
  why: 'Under set -u, "${x:-default}" expands the default instead of failing as unbound.',
  edits: [{ find: 'c=await Cr(e,l),u=await We(e,l),f=u===""', replace: 'c=await Cr(e,l),u=await We(e,l,!1),f=u===""' }],
  shows: ['set -u; echo "${u1:-a}" "${u2+b}" "${u3:=c}"; echo "$u3"; f() { echo "${1:-none}"; }; f'],
};
