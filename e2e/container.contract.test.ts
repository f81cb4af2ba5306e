/**
 * The container executor against the shared executor contract, through the real platform
 * (`npm start`: wrangler dev, the workspace object, the local supervisor, computerd with
 * its FUSE mount). CI runs as root with /dev/fuse, as the local supervisor needs.
 */
import { executorContract } from "../executors/contract.suite.ts";
import { httpClient } from "./httpClient.ts";
import { sharedPlatform } from "./sharedPlatform.ts";

const client = httpClient(sharedPlatform().url);

executorContract(
  "container",
  "command",
  {
    echo: "echo hello",
    exit3: "exit 3",
    stderr: "echo oops >&2",
    stdin: "cat",
    env: 'echo "$NAME"',
    cwd: "pwd",
    writeFile: "printf from-executor > /workspace/out.txt",
    readFile: "cat /workspace/in.txt",
    forever: "while true; do sleep 1; done",
    flood: "seq 1 30000",
    unicode: "echo 'héllo ✓ 日本'",
    binary: "printf '\\000\\377'",
  },
  client,
);
