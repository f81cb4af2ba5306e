/**
 * The built guest (scripts/build-shell.ts), imported as text: wrangler and the Workers
 * vitest plugin both load `*.txt` as a Text module by default, so this needs no rule in
 * wrangler.toml. Build it before `wrangler dev`, `wrangler deploy` and the tests.
 */
import guestSource from "../../.build/shell/guest.txt";
import version from "../../.build/shell/version.txt";

export const shellGuestCode = { guestSource, version: version.trim() };
