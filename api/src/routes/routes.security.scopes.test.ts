/**
 * The shared security suite, reach: a valid credential that may not do what a route does
 * answers 403. A key without the route's scope; and, on routes that reach the whole account,
 * credentials confined to some workspaces or a path prefix (each with every scope, so only
 * its confinement can refuse it), and on key management any scoped token at all.
 */
import { describe, it } from "vitest";
import { expectProblem, mintToken } from "../../../test/client.ts";
import { keyForOtherWorkspace, keyWithout } from "../../../test/fixtures.ts";
import { securedRequest, securitySuiteCast } from "../../../test/securedRequests.ts";
import { SECURED_ROUTES } from "../../../test/securedRoutes.ts";

const cast = securitySuiteCast();

// Routes any valid credential may call (GET /v1/account) have nothing to check here.
const limited = SECURED_ROUTES.filter((route) => route.scope !== null || route.accountWide !== undefined);

describe.each(limited)("$method $path", (route) => {
  const { send, expectDetail } = securedRequest(route);

  const { scope } = route;
  if (scope !== null) {
    it("refuses a key without the route's scope", async () => {
      const problem = await expectProblem(
        await send(await keyWithout(cast.alice, scope), cast.alice),
        403,
        "forbidden",
      );
      expectDetail(problem, scope);
    });
  }

  const { accountWide } = route;
  if (accountWide) {
    it("refuses a key restricted to some workspaces", async () => {
      const key = await keyForOtherWorkspace(cast.alice);
      const problem = await expectProblem(await send(key, cast.alice), 403, "forbidden");
      expectDetail(problem, /restricted to some workspaces/);
    });

    it("refuses a token confined to a path prefix", async () => {
      const { token } = await mintToken(cast.alice.key, { pathPrefix: "/src" });
      const problem = await expectProblem(await send(token, cast.alice), 403, "forbidden");
      expectDetail(problem, accountWide === "key" ? /scoped token/ : /path prefix \/src/);
    });
  }
  if (accountWide === "key") {
    it("refuses a scoped token, even one with the whole account", async () => {
      const { token } = await mintToken(cast.alice.key);
      expectDetail(await expectProblem(await send(token, cast.alice), 403, "forbidden"), /needs an API key/);
    });
  }
});
