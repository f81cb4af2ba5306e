/**
 * The shape of one fix to just-bash, applied to its published bundle at install
 * (scripts/patch-just-bash.ts). See README.md in this folder for why fixes are carried this way.
 */

/** Replace `find`, which must occur exactly once in the bundle at the point it is applied. */
export interface Edit {
  find: string;
  replace: string;
}

export interface Patch {
  /** Kebab-case, unique; named in the README's table and in the test that shows it. */
  name: string;
  /** What bash does that just-bash did not, in one sentence. */
  why: string;
  edits: readonly Edit[];
  /** Scripts whose output under the patched just-bash must equal bash's (scripts/patch-just-bash.test.ts). */
  shows: readonly string[];
}
