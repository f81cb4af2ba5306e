/**
 * Applies executors/shell/patches to just-bash's browser bundle, the one file the shell
 * guest is built from (scripts/bundleGuest.ts picks the "browser" condition). Run by
 * `npm install` (postinstall) and by hand; safe to run again.
 *
 * The bundle's pristine text is kept beside it as `browser.js.orig` and every run patches
 * from that copy, so each edit's anchor is looked up in the text it was written against and
 * a second run gives the same file. A bundle that is neither the pristine 3.4.2 one nor
 * patched from it (a just-bash upgrade) stops the install with a message: the anchors are
 * minified code and must be rewritten against the new version.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { justBashPatches, pristineSha256 } from "../executors/shell/patches/index.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
export const bundlePath = join(root, "node_modules/just-bash/dist/bundle/browser.js");
const pristinePath = `${bundlePath}.orig`;

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

export function pristineBundle(): string {
  const current = readFileSync(bundlePath, "utf8");
  if (sha256(current) === pristineSha256) {
    writeFileSync(pristinePath, current);
    return current;
  }
  if (existsSync(pristinePath)) {
    const kept = readFileSync(pristinePath, "utf8");
    if (sha256(kept) === pristineSha256) return kept;
  }
  throw new Error(
    `${bundlePath} is not the just-bash 3.4.2 bundle the patches in executors/shell/patches were written against; rewrite them for this version`,
  );
}

/** The bundle with every patch applied; throws when an anchor is missing or not unique. */
export function patchedBundle(pristine: string): string {
  let text = pristine;
  for (const patch of justBashPatches) {
    for (const [i, edit] of patch.edits.entries()) {
      const at = text.indexOf(edit.find);
      if (at < 0 || text.indexOf(edit.find, at + 1) >= 0) {
        throw new Error(
          `just-bash patch ${patch.name}, edit ${i + 1}: its anchor is ${at < 0 ? "missing" : "not unique"}`,
        );
      }
      text = text.slice(0, at) + edit.replace + text.slice(at + edit.find.length);
    }
  }
  return text;
}

/** Writes the patched bundle in place; returns the patches' names. */
export function patchJustBash(): string[] {
  writeFileSync(bundlePath, patchedBundle(pristineBundle()));
  return justBashPatches.map((p) => p.name);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const names = patchJustBash();
  console.log(`just-bash: ${names.length} patches applied (${names.join(", ")})`);
}
