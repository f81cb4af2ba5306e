/** The feature corpus: small scripts, one file per area of bash, plus what agents run. */
import type { CorpusScript } from "../sh.ts";
import { agents } from "./agents.ts";
import { arithmetic } from "./arithmetic.ts";
import { arrays } from "./arrays.ts";
import { braces } from "./braces.ts";
import { conditions } from "./conditions.ts";
import { control } from "./control.ts";
import { parameters } from "./parameters.ts";
import { printf } from "./printf.ts";
import { globs, heredocs, pipelines, quoting, redirects, substitution } from "./words.ts";

export const featureCases: CorpusScript[] = [
  ...quoting,
  ...parameters,
  ...arithmetic,
  ...braces,
  ...globs,
  ...heredocs,
  ...redirects,
  ...control,
  ...conditions,
  ...arrays,
  ...substitution,
  ...printf,
  ...pipelines,
  ...agents,
];
