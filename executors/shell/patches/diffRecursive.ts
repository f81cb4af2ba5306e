/**
 * `diff -r DIR1 DIR2` compares two trees as GNU diff does: entries by name in byte order,
 * `Only in DIR: name` for one side's, a `diff -r a/x b/x` header before each differing pair's
 * diff (none under -q, which says `Files … differ`), subdirectories walked, status 1 when
 * anything differs. just-bash refused -r ("invalid option"), so `diff -r src backup`, a common
 * check after a copy, failed with status 2. The pairs are compared by the diff command itself,
 * with the other options given.
 */
import type { Patch } from "./patch.ts";

// Hand-written: the tree walk and GNU's wording around the per-file diff the command makes.
const helpers = `
function __cbIsRecursive(a) {
  return a === "--recursive" || /^-[a-zA-Z]*r[a-zA-Z]*$/.test(a);
}
async function __cbDiffR(args, ctx, run) {
  const flags = [], shown = [], ops = [];
  let ended = false;
  for (const a of args) {
    if (!ended && a === "--") { ended = true; continue; }
    if (!ended && a.startsWith("-") && a !== "-") {
      shown.push(a);
      if (a === "--recursive") continue;
      if (/^-[a-zA-Z]+$/.test(a)) { const f = a.replace(/r/g, ""); if (f !== "-") flags.push(f); continue; }
      flags.push(a);
      continue;
    }
    ops.push(a);
  }
  const fs = ctx.fs, abs = (p) => fs.resolvePath(ctx.cwd, p);
  const isDir = async (p) => { try { return (await fs.stat(abs(p))).isDirectory; } catch { return null; } };
  if (ops.length !== 2 || !(await isDir(ops[0])) || !(await isDir(ops[1]))) return run([...flags, ...ops]);
  const brief = flags.some((f) => /^-[a-zA-Z]*q/.test(f) || f === "--brief");
  const header = ["diff", ...shown].join(" ");
  const join = (d, n) => (d.endsWith("/") ? d + n : \`\${d}/\${n}\`);
  const byBytes = (x, y) => (x < y ? -1 : x > y ? 1 : 0);
  let out = "", err = "", rc = 0;
  const walk = async (a, b) => {
    const la = new Set(await fs.readdir(abs(a))), lb = new Set(await fs.readdir(abs(b)));
    for (const n of [...new Set([...la, ...lb])].sort(byBytes)) {
      if (!lb.has(n)) { out += \`Only in \${a}: \${n}\\n\`; rc = Math.max(rc, 1); continue; }
      if (!la.has(n)) { out += \`Only in \${b}: \${n}\\n\`; rc = Math.max(rc, 1); continue; }
      const pa = join(a, n), pb = join(b, n), da = await isDir(pa), db = await isDir(pb);
      if (da && db) { await walk(pa, pb); continue; }
      if (da !== db) {
        out += \`File \${pa} is a \${da ? "directory" : "regular file"} while file \${pb} is a \${db ? "directory" : "regular file"}\\n\`;
        rc = Math.max(rc, 1);
        continue;
      }
      const r = await run([...flags, pa, pb]);
      if (r.exitCode === 1) { out += (brief ? "" : \`\${header} \${pa} \${pb}\\n\`) + r.stdout; rc = Math.max(rc, 1); }
      else if (r.exitCode === 0) out += r.stdout;
      else { err += r.stderr; rc = 2; }
    }
  };
  await walk(ops[0], ops[1]);
  return { stdout: out, stderr: err, exitCode: rc };
}
`;

export const diffRecursive: Patch = {
  name: "diff-recursive",
  why: "diff -r compares two directory trees as GNU diff does (Only in …, a diff -r header per differing pair).",
  edits: [
    { find: "var P3=Object.create;", replace: `${helpers}var P3=Object.create;` },
    {
      find: 'XS={name:"diff",async execute(e,t){',
      replace:
        'XS={name:"diff",async execute(e,t){if(e.some(__cbIsRecursive))return __cbDiffR(e,t,a=>XS.execute(a,t));',
    },
  ],
  shows: [
    'mkdir -p src/b; echo alpha > src/a.txt; echo gamma > src/b/c.txt; cp -r src backup; diff -r src backup && echo identical; echo changed > src/a.txt; echo new > backup/only.txt; mkdir src/extra; diff -r src backup; echo "rc=$?"',
    "mkdir -p x y; echo 1 > x/f; echo 2 > y/f; echo s > x/same; echo s > y/same; diff -rq x y; echo \"rc=$?\"; diff -ru x y | grep -c '^[-+][12]'",
  ],
};
