/**
 * `diff` without `-u` prints GNU's default "normal" format (`2c2`, `< old`, `---`, `> new`),
 * which is what scripts and agents read; just-bash always printed a unified diff. With `-u`
 * the unified diff no longer starts with jsdiff's `====` line, so its `---`/`+++` header is
 * where GNU's is (GNU's header also carries the files' times, which differ anyway).
 */
import type { Patch } from "./patch.ts";

const helpers = `
function __cbNormalDiff(oldText, newText) {
  const range = (from, count) => (count <= 1 ? String(from + (count === 0 ? 0 : 1)) : \`\${from + 1},\${from + count}\`);
  const lines = (text) => {
    const list = text.split("\\n");
    if (list[list.length - 1] === "") list.pop();
    return list;
  };
  const oldEndsBare = oldText.length > 0 && !oldText.endsWith("\\n");
  const newEndsBare = newText.length > 0 && !newText.endsWith("\\n");
  const oldCount = lines(oldText).length, newCount = lines(newText).length;
  const show = (mark, list, start, total, bare) =>
    list.map((line, k) => \`\${mark} \${line}\\n\${bare && start + k === total - 1 ? "\\\\ No newline at end of file\\n" : ""}\`).join("");
  let out = "", o = 0, n = 0;
  const changes = i2.diffLines(oldText, newText);
  for (let k = 0; k < changes.length; k++) {
    const change = changes[k];
    if (!change.added && !change.removed) {
      const count = lines(change.value).length;
      o += count; n += count;
      continue;
    }
    let removed = [], added = [];
    if (change.removed) {
      removed = lines(change.value);
      if (changes[k + 1]?.added) added = lines(changes[++k].value);
    } else added = lines(change.value);
    if (removed.length > 0 && added.length > 0) {
      out += \`\${range(o, removed.length)}c\${range(n, added.length)}\\n\`;
      out += show("<", removed, o, oldCount, oldEndsBare) + "---\\n" + show(">", added, n, newCount, newEndsBare);
    } else if (removed.length > 0) {
      out += \`\${range(o, removed.length)}d\${n}\\n\` + show("<", removed, o, oldCount, oldEndsBare);
    } else {
      out += \`\${o}a\${range(n, added.length)}\\n\` + show(">", added, n, newCount, newEndsBare);
    }
    o += removed.length; n += added.length;
  }
  return out;
}
`;

export const diffNormalFormat: Patch = {
  name: "diff-normal-format",
  why: "diff prints GNU's normal format (2c2, < old, ---, > new) unless -u is given.",
  edits: [
    { find: "var P3=Object.create;", replace: `${helpers}var P3=Object.create;` },
    {
      find: "let r=n.result.flags.brief,s=n.result.flags.reportSame,i=n.result.flags.ignoreCase,o=n.result.positional;if(n.result.flags.unified,o.length<2)",
      replace:
        "let r=n.result.flags.brief,s=n.result.flags.reportSame,i=n.result.flags.ignoreCase,o=n.result.positional,__cbUnified=n.result.flags.unified;if(o.length<2)",
    },
    {
      find: '{stdout:i2.createTwoFilesPatch(c,u,a,l,"","",{context:3}),stderr:"",exitCode:1}',
      replace:
        '{stdout:__cbUnified?i2.createTwoFilesPatch(c,u,a,l,"","",{context:3}).replace(/^=+\\n/,""):__cbNormalDiff(a,l),stderr:"",exitCode:1}',
    },
  ],
  shows: [
    "printf 'apple\\nbanana\\ncherry\\ndate\\n' > a; printf 'apple\\nblueberry\\ncherry\\ndate\\nelderberry\\n' > b; diff a b; echo $?; diff b a",
    "printf '1\\n2\\n3\\n4\\n5\\n' > a; printf '0\\n1\\n3\\n5\\n6\\n7\\n' > b; diff a b",
    "printf 'x\\ny' > a; printf 'x\\nz' > b; diff a b; printf 'x\\n' > c; diff c a",
    "printf 'a\\nb\\n' > a; printf 'a\\nc\\n' > b; diff -u a b | tail -n +3",
  ],
};
