/**
 * The shared security suite, tenant isolation: an id the credential may not reach answers
 * 404, exactly like a missing one (docs/threat-model.md). Every route that names a resource
 * is asked, with Alice's key, for Mallory's; every route under a workspace (and artifacts and
 * share links, read only through the workspace they came from) is asked with a key
 * restricted to another workspace.
 */
import { describe, it } from "vitest";
import { expectProblem } from "../../../test/client.ts";
import { keyForOtherWorkspace } from "../../../test/fixtures.ts";
import { securedRequest, securitySuiteCast } from "../../../test/securedRequests.ts";
import { SECURED_ROUTES, type SecuredRoute } from "../../../test/securedRoutes.ts";

const cast = securitySuiteCast();

/** Routes that name a resource by id; those under a workspace (inWorkspace) are a part of them. */
const namesResource = (route: SecuredRoute) =>
  /\{(workspaceId|keyId|execId|artifactId|shareId|snapshotId)\}/.test(route.path);
const inWorkspace = (route: SecuredRoute) => /\{(workspaceId|artifactId|shareId)\}/.test(route.path);

describe.each(SECURED_ROUTES.filter(namesResource))("$method $path", (route) => {
  const { send } = securedRequest(route);

  it("answers 404 for another tenant's id", async () => {
    await expectProblem(await send(cast.alice.key, cast.mallory), 404, "not_found");
  });

  if (inWorkspace(route)) {
    it("answers 404 to a key restricted to another workspace", async () => {
      await expectProblem(await send(await keyForOtherWorkspace(cast.alice), cast.alice), 404, "not_found");
    });
  }
});
