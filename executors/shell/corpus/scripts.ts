/**
 * The shell corpus: bash scripts that run both in Cubicle's shell executor (just-bash) and
 * in real bash, whose results must agree byte for byte except where differences.ts says
 * otherwise (e2e/shellCorpus.test.ts runs both). Every script works on relative paths in
 * its working directory, which is /workspace in Cubicle and a fresh temporary directory for
 * bash, and prints nothing that depends on time, process ids, the environment's defaults or
 * where that directory is.
 */

import { featureCases } from "./features/index.ts";
import { builtins } from "./groups/builtins.ts";
import { functions, loops } from "./groups/control.ts";
import { findScripts, jqScripts, textScripts } from "./groups/dataTools.ts";
import { arithmetic, globbing, quoting } from "./groups/expansion.ts";
import { fileCommands } from "./groups/fileCommands.ts";
import { heredocs, pipes, redirects } from "./groups/io.ts";
import { cases, conditions, parameters } from "./groups/parameters.ts";
import { realistic } from "./groups/realistic.ts";
import { exits, subshells } from "./groups/subshells.ts";
import { awkScripts, grepScripts, sedScripts, sortScripts } from "./groups/textTools.ts";
import type { CorpusScript } from "./sh.ts";

export type { CorpusScript } from "./sh.ts";

/** Every script, in the order the test runs them. */
export const corpus: CorpusScript[] = [
  ...pipes,
  ...redirects,
  ...heredocs,
  ...loops,
  ...functions,
  ...globbing,
  ...arithmetic,
  ...quoting,
  ...parameters,
  ...conditions,
  ...cases,
  ...subshells,
  ...exits,
  ...grepScripts,
  ...sedScripts,
  ...awkScripts,
  ...sortScripts,
  ...textScripts,
  ...findScripts,
  ...jqScripts,
  ...fileCommands,
  ...builtins,
  ...realistic,
  ...featureCases,
];
