/**
 * `test -s` (and `[[ -s ]]`) is true for a directory, whose size on Linux is never 0 (a
 * block for ext4, the entries' sizes for tmpfs); just-bash's directories have size 0.
 */
import type { Patch } from "./patch.ts";

export const testSizeDirectory: Patch = {
  name: "test-size-directory",
  why: "test -s is true for a directory, as on Linux, where a directory's size is never 0.",
  edits: [
    {
      find: 'case"-s":return await e.fs.exists(r)?(await e.fs.stat(r)).size>0:!1;',
      replace: 'case"-s":return await e.fs.exists(r)?(s=>s.isDirectory||s.size>0)(await e.fs.stat(r)):!1;',
    },
  ],
  shows: [
    "mkdir -p d && touch e && printf x > f; for p in d e f nope; do [ -s $p ] && echo $p; [[ -s $p ]] && echo $p; done",
  ],
};
