/**
 * The shared security suite, credentials: every authenticated route (test/securedRoutes.ts),
 * under every way a credential can fail authentication, answers 401. The first check is the
 * control: the route works with a right credential, so each refusal below is the credential's.
 */
import { describe, expect, it } from "vitest";
import { expectProblem } from "../../../test/client.ts";
import { expiredKey, revokedKey } from "../../../test/fixtures.ts";
import { securedRequest, securitySuiteCast } from "../../../test/securedRequests.ts";
import { SECURED_ROUTES } from "../../../test/securedRoutes.ts";

const cast = securitySuiteCast();

describe.each(SECURED_ROUTES)("$method $path", (route) => {
  const { send, expectDetail } = securedRequest(route);

  it("works with a right credential (the control for every refusal below)", async () => {
    const response = await send(cast.alice.key, cast.alice);
    if (response.status >= 300) throw new Error(`expected success, got ${response.status} ${await response.text()}`);
  });

  it("refuses a request without a credential", async () => {
    const response = await send(undefined, cast.alice);
    await expectProblem(response, 401, "unauthorized");
    expect(response.headers.get("www-authenticate")).toContain("Bearer");
  });

  it("refuses a malformed key", async () => {
    await expectProblem(await send("not-a-key", cast.alice), 401, "unauthorized");
  });

  it("refuses a key whose checksum does not match", async () => {
    const { key } = cast.alice;
    const last = key.at(-1) === "a" ? "b" : "a";
    const problem = await expectProblem(await send(key.slice(0, -1) + last, cast.alice), 401, "unauthorized");
    expectDetail(problem, /checksum/);
  });

  it("refuses a well-formed key that was never issued", async () => {
    const { generateKeySecret } = await import("../../../tenants/account/keySecret.ts");
    const problem = await expectProblem(await send(await generateKeySecret(), cast.alice), 401, "unauthorized");
    expectDetail(problem, /does not exist/);
  });

  it("refuses a revoked key", async () => {
    const problem = await expectProblem(await send(await revokedKey(cast.alice), cast.alice), 401, "unauthorized");
    expectDetail(problem, /revoked/);
  });

  it("refuses an expired key", async () => {
    const problem = await expectProblem(await send(await expiredKey(cast.alice), cast.alice), 401, "unauthorized");
    expectDetail(problem, /expired/);
  });

  it("refuses an expired scoped token", async () => {
    const problem = await expectProblem(await send(cast.aliceExpiredToken, cast.alice), 401, "unauthorized");
    expectDetail(problem, /token has expired/);
  });

  it("refuses a scoped token whose API key was revoked", async () => {
    const problem = await expectProblem(await send(cast.aliceOrphanedToken, cast.alice), 401, "unauthorized");
    expectDetail(problem, /minted from has been revoked/);
  });
});
