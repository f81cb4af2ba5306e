/**
 * `ls` with several operands lists the ones that are not directories first, together and
 * sorted, then each directory under its `name:` header, with a blank line only before a
 * directory's listing (GNU ls). just-bash listed operands in argument order with a blank line
 * between any two, so `ls *.log` printed a blank line between files.
 */
import type { Patch } from "./patch.ts";

const helpers = `
async function __cbLsOperands(ctx, operands, reverse) {
  // Missing operands keep their place (their errors come first, as GNU stats them all
  // before listing), then the other files by name, then the directories by name.
  const missing = [], files = [], directories = new Set();
  for (const operand of operands) {
    try {
      const stat = await ctx.fs.stat(ctx.fs.resolvePath(ctx.cwd, operand));
      if (stat.isDirectory) directories.add(operand); else files.push(operand);
    } catch {
      missing.push(operand);
    }
  }
  const byName = (a, b) => (a < b ? -1 : a > b ? 1 : 0) * (reverse ? -1 : 1);
  const ordered = [...missing, ...files.sort(byName), ...[...directories].sort(byName)];
  ordered.__cbDirectories = directories;
  return ordered;
}
`;

export const lsOperands: Patch = {
  name: "ls-operands",
  why: "ls lists file operands together before directories, with blank lines only before a directory's listing.",
  edits: [
    { find: "var P3=Object.create;", replace: `${helpers}var P3=Object.create;` },
    {
      find: 'p.length===0&&p.push(".");let h="",m="",g=0,b=new Rt({limits:t.limits,signal:t.signal,executionScope:t.executionScope,site:"ls"});for(let w=0;w<p.length;w++){let y=p[w];if(w>0&&h&&!h.endsWith(`',
      replace:
        'p.length===0&&p.push(".");p.length>1&&!f&&!p.some(y=>y.includes("*")||y.includes("?")||y.includes("["))&&(p=await __cbLsOperands(t,p,l));let h="",m="",g=0,b=new Rt({limits:t.limits,signal:t.signal,executionScope:t.executionScope,site:"ls"});for(let w=0;w<p.length;w++){let y=p[w];if(w>0&&h&&(!p.__cbDirectories||p.__cbDirectories.has(y))&&!h.endsWith(`',
    },
  ],
  shows: [
    "mkdir -p /tmp/lsop && cd /tmp/lsop && mkdir -p d e && touch b a && ls e b d a nope; echo; ls -r a b d; echo; ls a b",
  ],
};
