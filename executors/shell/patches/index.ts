/**
 * The fixes applied to just-bash 3.4.2's browser bundle at install, in order. See README.md.
 */

import { ansiCQuoting } from "./ansiCQuoting.ts";
import { arithCommandSubstitution } from "./arithCommandSubstitution.ts";
import { arithCompoundShift } from "./arithCompoundShift.ts";
import { arithErrorMessages } from "./arithErrorMessages.ts";
import { arithInt64 } from "./arithInt64.ts";
import { assocHashOrder } from "./assocHashOrder.ts";
import { assocSlice } from "./assocSlice.ts";
import { assocSubscriptSpecial } from "./assocSubscriptSpecial.ts";
import { awkFieldPower } from "./awkFieldPower.ts";
import { awkPrintfFlags } from "./awkPrintfFlags.ts";
import { awkSpecialVariables } from "./awkSpecialVariables.ts";
import { backgroundJobStatus } from "./backgroundJobStatus.ts";
import { bashVersinfo } from "./bashVersinfo.ts";
import { braceBeforeParameters } from "./braceBeforeParameters.ts";
import { braceRangeAcrossCase } from "./braceRangeAcrossCase.ts";
import { braceWordQuotes } from "./braceWordQuotes.ts";
import { caseModificationEach } from "./caseModificationEach.ts";
import { casePatternQuoting } from "./casePatternQuoting.ts";
import { caseToggle } from "./caseToggle.ts";
import { commandNameSplitting } from "./commandNameSplitting.ts";
import { cutOutputDelimiter } from "./cutOutputDelimiter.ts";
import { declareArrayWords } from "./declareArrayWords.ts";
import { declareKeyedValues } from "./declareKeyedValues.ts";
import { declarePrintAssoc } from "./declarePrintAssoc.ts";
import { devStdinOperand } from "./devStdinOperand.ts";
import { diffNormalFormat } from "./diffNormalFormat.ts";
import { diffRecursive } from "./diffRecursive.ts";
import { dirnameRoot } from "./dirnameRoot.ts";
import { errexitAndOrLeft } from "./errexitAndOrLeft.ts";
import { errorLineNumbers } from "./errorLineNumbers.ts";
import { excludedCommandNotFound } from "./excludedCommandNotFound.ts";
import { execOwnAttributes } from "./execOwnAttributes.ts";
import { extglobNegation } from "./extglobNegation.ts";
import { failglobAbandonsLine } from "./failglobAbandonsLine.ts";
import { fatalExpansionStatus } from "./fatalExpansionStatus.ts";
import { forPositional } from "./forPositional.ts";
import { getoptsOptind } from "./getoptsOptind.ts";
import { globTrailingSlash } from "./globTrailingSlash.ts";
import { grepNoMessages } from "./grepNoMessages.ts";
import { grepOptions } from "./grepOptions.ts";
import { headNegativeCount } from "./headNegativeCount.ts";
import { jqCsvQuotes } from "./jqCsvQuotes.ts";
import { jqDeleteSeveral } from "./jqDeleteSeveral.ts";
import { jqInputs } from "./jqInputs.ts";
import { jqPathsAndWalk } from "./jqPathsAndWalk.ts";
import { jqSortedResults } from "./jqSortedResults.ts";
import { loopControlOutsideLoop } from "./loopControlOutsideLoop.ts";
import { loopControlStatus } from "./loopControlStatus.ts";
import { lsDirectoryOperands } from "./lsDirectoryOperands.ts";
import { lsMissingMessage } from "./lsMissingMessage.ts";
import { lsOperands } from "./lsOperands.ts";
import { missingFileMessages } from "./missingFileMessages.ts";
import { mkdirQuotes } from "./mkdirQuotes.ts";
import { nounsetQuotedDefault } from "./nounsetQuotedDefault.ts";
import { odAttachedType } from "./odAttachedType.ts";
import { odColumns } from "./odColumns.ts";
import { outputInterleaving } from "./outputInterleaving.ts";
import { pasteStdin } from "./pasteStdin.ts";
import type { Patch } from "./patch.ts";
import { pipeStderrOrder } from "./pipeStderrOrder.ts";
import { positionalCorners } from "./positionalCorners.ts";
import { printfBWidth } from "./printfBWidth.ts";
import { printfFloatForms } from "./printfFloatForms.ts";
import { printfGeneral } from "./printfGeneral.ts";
import { printfInt64 } from "./printfInt64.ts";
import { printfNumberErrors } from "./printfNumberErrors.ts";
import { printfQuoteChars } from "./printfQuoteChars.ts";
import { printfRoundHalfEven } from "./printfRoundHalfEven.ts";
import { quoteSingleQuote } from "./quoteSingleQuote.ts";
import { rawBytes } from "./rawBytes.ts";
import { readonlyAssignmentFails } from "./readonlyAssignmentFails.ts";
import { redirectedErrorLines } from "./redirectedErrorLines.ts";
import { sedExtendedAddresses } from "./sedExtendedAddresses.ts";
import { sedTextCommands } from "./sedTextCommands.ts";
import { sortCodePointOrder } from "./sortCodePointOrder.ts";
import { sortFields } from "./sortFields.ts";
import { sortOptions } from "./sortOptions.ts";
import { starJoinsWithIfs } from "./starJoinsWithIfs.ts";
import { subscriptArithmetic } from "./subscriptArithmetic.ts";
import { substringBeforeStart } from "./substringBeforeStart.ts";
import { testIntegerErrors } from "./testIntegerErrors.ts";
import { testSizeDirectory } from "./testSizeDirectory.ts";
import { trapExitErr } from "./trapExitErr.ts";
import { uniqCountWidth } from "./uniqCountWidth.ts";
import { wcWidth } from "./wcWidth.ts";
import { xargsOptions } from "./xargsOptions.ts";
import { xtraceBeforeRedirects } from "./xtraceBeforeRedirects.ts";
import { zoneAbbreviations } from "./zoneAbbreviations.ts";

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
  uniqCountWidth,
  sortFields,
  sortCodePointOrder,
  sortOptions,
  jqSortedResults,
  jqCsvQuotes,
  jqDeleteSeveral,
  lsOperands,
  lsMissingMessage,
  xargsOptions,
  wcWidth,
  cutOutputDelimiter,
  dirnameRoot,
  mkdirQuotes,
  testSizeDirectory,
  grepNoMessages,
  headNegativeCount,
  odColumns,
  fatalExpansionStatus,
  forPositional,
  caseModificationEach,
  declarePrintAssoc,
  casePatternQuoting,
  trapExitErr,
  diffNormalFormat,
  sedExtendedAddresses,
  printfRoundHalfEven,
  awkPrintfFlags,
  loopControlStatus,
  quoteSingleQuote,
  globTrailingSlash,
  getoptsOptind,
  readonlyAssignmentFails,
  errexitAndOrLeft,
  devStdinOperand,
  failglobAbandonsLine,
  assocSubscriptSpecial,
  braceRangeAcrossCase,
  arithCompoundShift,
  subscriptArithmetic,
  assocSlice,
  caseToggle,
  extglobNegation,
  braceBeforeParameters,
  execOwnAttributes,
  excludedCommandNotFound,
  braceWordQuotes,
  assocHashOrder,
  arithErrorMessages,
  printfNumberErrors,
  printfFloatForms,
  testIntegerErrors,
  commandNameSplitting,
  starJoinsWithIfs,
  grepOptions,
  lsDirectoryOperands,
  positionalCorners,
  sedTextCommands,
  redirectedErrorLines,
  missingFileMessages,
  backgroundJobStatus,
  ansiCQuoting,
  zoneAbbreviations,
  diffRecursive,
  printfQuoteChars,
  substringBeforeStart,
  odAttachedType,
  bashVersinfo,
  jqPathsAndWalk,
  awkSpecialVariables,
  awkFieldPower,
  jqInputs,
  outputInterleaving,
  printfBWidth,
];
