/** The shell executor against the shared executor contract, through the real API. */
import { executorContract } from "../contract.suite.ts";

executorContract("shell", "command", {
  echo: "echo hello",
  exit3: "exit 3",
  stderr: "echo oops >&2",
  stdin: "cat",
  env: 'echo "$NAME"',
  cwd: "pwd",
  writeFile: "printf from-executor > /workspace/out.txt",
  readFile: "cat /workspace/in.txt",
  // Sleeping, so a kill (delivered when the script yields) reaches it at once.
  forever: "while true; do sleep 1; done",
  flood: "seq 1 30000",
  unicode: "echo 'héllo ✓ 日本'",
  binary: "printf '\\x00\\xff'",
});
