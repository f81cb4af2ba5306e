/** One corpus script (scripts.ts and features/ hold them; e2e/shellCorpus.test.ts runs them). */
export interface CorpusScript {
  /** Unique and kebab-case; differences.ts refers to scripts by it. */
  name: string;
  /** Run as `bash -c script` in the working directory. */
  script: string;
  /** Files created in the working directory before the run, by relative path. */
  files?: Record<string, string>;
  /** Standard input, then EOF; empty when absent. */
  stdin?: string;
  /** Variables added to the environment. */
  env?: Record<string, string>;
}

/**
 * Text exactly as written between the backticks — backslashes stay, so `\n` reaches bash as
 * backslash-n — except that `\${` and `` \` `` stand for `${` and a backtick, which a template
 * literal cannot hold otherwise. Interpolation is refused by the type, so a forgotten escape
 * is a compile error rather than a silently changed script.
 */
export function sh(strings: TemplateStringsArray, ...values: never[]): string {
  if (values.length > 0) throw new Error("sh`…` takes no interpolations");
  return strings.raw.join("").replaceAll("\\${", "${").replaceAll("\\`", "`").replace(/^\n/, "");
}

/**
 * Many small scripts in one text: each starts at a line `## <name>` and runs to the next;
 * its corpus name is `<feature>-<name>`. Scripts that need files, stdin or an environment
 * are written as CorpusScript objects instead.
 */
export function cases(feature: string, text: string): CorpusScript[] {
  const parts = text.split(/^## +(\S+) *\n/m);
  if (parts[0]?.trim()) throw new Error(`${feature}: text before the first ## name`);
  const scripts: CorpusScript[] = [];
  for (let i = 1; i < parts.length; i += 2) {
    scripts.push({ name: `${feature}-${parts[i]}`, script: (parts[i + 1] ?? "").replace(/\n+$/, "\n") });
  }
  return scripts;
}
