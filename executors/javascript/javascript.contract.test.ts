/** The javascript executor against the shared executor contract, through the real API. */
import { call, createWorkspace, signup } from "../../test/client.ts";
import { executorContract } from "../contract.suite.ts";

executorContract(
  "javascript",
  "code",
  {
    echo: 'console.log("hello");',
    exit3: "process.exit(3);",
    stderr: 'console.error("oops");',
    stdin: 'import { readFile } from "node:fs/promises";\nprocess.stdout.write(await readFile("/dev/stdin"));',
    env: "console.log(process.env.NAME);",
    cwd: "console.log(process.cwd());",
    writeFile: 'import { writeFile } from "node:fs/promises";\nawait writeFile("/workspace/out.txt", "from-executor");',
    readFile:
      'import { readFile } from "node:fs/promises";\nprocess.stdout.write(await readFile("/workspace/in.txt", "utf8"));',
    // Waiting on a timer, so a kill (delivered when the module yields) reaches it at once.
    forever: "await new Promise(() => setInterval(() => {}, 1000));",
    flood: "for (let i = 0; i < 30000; i++) console.log(i);",
    unicode: 'console.log("héllo ✓ 日本");',
    binary: "process.stdout.write(new Uint8Array([0x00, 0xff]));",
  },
  { call, signup, createWorkspace },
);
