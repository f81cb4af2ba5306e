/**
 * GNU mkdir quotes the name in its errors with ‘…’ in a UTF-8 locale (C.UTF-8 here), unlike
 * rm or ls, which use '…'; just-bash used '…'.
 */
import type { Patch } from "./patch.ts";

const message = (tail: string) => ({
  find: `mkdir: cannot create directory '\${c}': ${tail}`,
  replace: `mkdir: cannot create directory ‘\${c}’: ${tail}`,
});

export const mkdirQuotes: Patch = {
  name: "mkdir-quotes",
  why: "mkdir quotes names in its errors with ‘…’, as GNU mkdir does in a UTF-8 locale.",
  edits: [message("No such file or direc"), message("File exists"), message("${Ye(f)}")],
  shows: ["mkdir d; mkdir d; mkdir a/b; echo $?"],
};
