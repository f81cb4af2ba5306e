/**
 * A computer's name is the workspace it serves, `<tenantId>:<workspaceId>` (the same string
 * computerd gets as COMPUTERD_WORKSPACE and checks as its session token's subject). The name
 * travels in a URL path and picks a directory, so it is validated strictly: ids are
 * type-prefixed lowercase base32 (tenants/ids.ts), and nothing else gets through.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import { supervisorLimits } from "./limits.ts";

const NAME = /^ten_[0-9a-z]{1,64}:ws_[0-9a-z]{1,64}$/;

export function isComputerName(name: string): boolean {
  return name.length <= supervisorLimits.nameCharsMax && NAME.test(name);
}

/**
 * The daemon's state directory. A hash rather than the name itself, so the directory name
 * never depends on which characters ids may hold, and stays the same across restarts,
 * which is what lets a restarted daemon resume from its replica.
 */
export function stateDirFor(stateRoot: string, name: string): string {
  const hash = createHash("sha256").update(name).digest("hex").slice(0, 32);
  return join(stateRoot, "computers", hash);
}
