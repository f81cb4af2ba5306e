/** The `cubicle` executable: runs the command line and ends with its status. */

import { reportError } from "./output.ts";
import { program } from "./program.ts";

// A reader that stopped early (`cubicle diff … --patch | head`) closes the pipe: that ends
// the output as it would for any Unix tool, not in a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    process.exit(process.exitCode ?? 0);
  });
}

try {
  await program().parseAsync(process.argv);
} catch (error) {
  process.exitCode = reportError(error);
}
