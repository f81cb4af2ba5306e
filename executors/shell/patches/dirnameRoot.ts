/**
 * `dirname` follows POSIX's steps: a name of only slashes is `/`, and the parent of `/a` or
 * `//a` is `/`. just-bash stripped every trailing slash first, so `dirname /` printed `.`.
 */
import type { Patch } from "./patch.ts";

const helpers = `
function __cbDirname(name) {
  if (name === "") return ".";
  if (/^\\/+$/.test(name)) return "/";
  const trimmed = name.replace(/\\/+$/, "");
  const slash = trimmed.lastIndexOf("/");
  if (slash < 0) return ".";
  const parent = trimmed.slice(0, slash).replace(/\\/+$/, "");
  return parent === "" ? "/" : parent;
}
`;

export const dirnameRoot: Patch = {
  name: "dirname-root",
  why: "dirname of / (or of only slashes) is /.",
  edits: [
    { find: "var P3=Object.create;", replace: `${helpers}var P3=Object.create;` },
    {
      find: 'let r=[];for(let s of n){let i=s.replace(/\\/+$/,""),o=i.lastIndexOf("/");o===-1?r.push("."):o===0?r.push("/"):r.push(i.slice(0,o))}',
      replace: "let r=n.map(__cbDirname);",
    },
  ],
  shows: ["dirname /; dirname //; dirname /a; dirname a/; dirname a//b//; dirname ''; dirname /usr/lib/ x"],
};
