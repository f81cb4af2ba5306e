/**
 * The built guest runtime (scripts/build-javascript.ts), imported as text: wrangler and the
 * Workers vitest plugin load `*.txt` as Text modules by default. Build it before
 * `wrangler dev`, `wrangler deploy` and the tests (scripts/build.ts does).
 */
import gitSource from "../../.build/javascript/git.txt";
import runtimeSource from "../../.build/javascript/runtime.txt";
import version from "../../.build/javascript/version.txt";

export const javascriptRuntimeCode = { runtimeSource, gitSource, version: version.trim() };
