/** The `cubicle` executable: runs the command line and ends with its status. */

import { reportError } from "./output.ts";
import { program } from "./program.ts";

try {
  await program().parseAsync(process.argv);
} catch (error) {
  process.exitCode = reportError(error);
}
