/**
 * `grep -s` (`--no-messages`) keeps quiet about missing or unreadable files while still
 * exiting 2 for them, as GNU grep does; just-bash refused the option.
 */
import type { Patch } from "./patch.ts";

export const grepNoMessages: Patch = {
  name: "grep-no-messages",
  why: "grep -s suppresses errors about files (the status still says 2).",
  edits: [
    {
      find: 'name:"grep",async execute(e,t){let n=!1,',
      replace: 'name:"grep",async execute(e,t){let __cbNoMessages=!1,n=!1,',
    },
    {
      find: 'else if(pe==="q"||pe==="--quiet"||pe==="--silent")g=!0;',
      replace:
        'else if(pe==="q"||pe==="--quiet"||pe==="--silent")g=!0;else if(pe==="s"||pe==="--no-messages")__cbNoMessages=!0;',
    },
    {
      find: 'if("error"in Ee&&Ee.error){D+=Ee.error,',
      replace: 'if("error"in Ee&&Ee.error){__cbNoMessages||(D+=Ee.error),',
    },
  ],
  shows: ["echo x > f; grep -s x missing; echo $?; grep -s x f missing; echo $?; grep -sq x missing f; echo $?"],
};
