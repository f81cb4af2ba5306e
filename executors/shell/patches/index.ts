/**
 * The fixes applied to just-bash 3.4.2's browser bundle at install, in order. See README.md.
 */
import { arithCommandSubstitution } from "./arithCommandSubstitution.ts";
import { arithInt64 } from "./arithInt64.ts";
import { declareArrayWords } from "./declareArrayWords.ts";
import { declareKeyedValues } from "./declareKeyedValues.ts";
import { errorLineNumbers } from "./errorLineNumbers.ts";
import { loopControlOutsideLoop } from "./loopControlOutsideLoop.ts";
import { nounsetQuotedDefault } from "./nounsetQuotedDefault.ts";
import { pasteStdin } from "./pasteStdin.ts";
import type { Patch } from "./patch.ts";
import { pipeStderrOrder } from "./pipeStderrOrder.ts";
import { printfGeneral } from "./printfGeneral.ts";
import { printfInt64 } from "./printfInt64.ts";
import { rawBytes } from "./rawBytes.ts";
import { xtraceBeforeRedirects } from "./xtraceBeforeRedirects.ts";

/** SHA-256 of node_modules/just-bash/dist/bundle/browser.js as just-bash 3.4.2 ships it. */
export const pristineSha256 = "6390563a926e5018d5bc2e8b824ae1b13b87bdd3ed31857bacef31b3c100f224";

export const justBashPatches: readonly Patch[] = [
  arithInt64,
  arithCommandSubstitution,
  printfInt64,
  declareKeyedValues,
  declareArrayWords,
  loopControlOutsideLoop,
  errorLineNumbers,
  nounsetQuotedDefault,
  pipeStderrOrder,
  pasteStdin,
  xtraceBeforeRedirects,
  rawBytes,
  printfGeneral,
];
