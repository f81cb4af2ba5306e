/**
 * Every way a scoped token can be bad, each refused with 401 and a detail naming exactly
 * what is wrong. The tokens are made by hand (test/craftToken.ts), with the real
 * keyring where the point is that only one thing differs.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { SigningKeys } from "../../../tenants/account/signingKeys.ts";
import { database } from "../../../tenants/db.ts";
import { call, expectProblem, mintToken, signup } from "../../../test/client.ts";
import { type Craft, craftToken, unsignedToken } from "../../../test/craftToken.ts";

let tenant: Awaited<ReturnType<typeof signup>>;
let craft: Craft;

beforeAll(async () => {
  tenant = await signup();
  craft = { tenantId: tenant.tenantId, keyId: tenant.keyId };
});

async function refused(credential: string, detail: string | RegExp) {
  const response = await call("GET", "/v1/account", { key: credential });
  const problem = await expectProblem(response, 401, "unauthorized");
  expect(response.headers.get("www-authenticate")).toContain("Bearer");
  expect(problem.detail).toMatch(detail);
}

const nowS = () => Math.floor(Date.now() / 1000);

describe("scoped token rejections", () => {
  it("accepts the hand-made control token (so each refusal below is about one change)", async () => {
    expect((await call("GET", "/v1/account", { key: await craftToken(craft) })).status).toBe(200);
  });

  it("refuses an unsigned `alg: none` token", async () => {
    await refused(await unsignedToken(craft), /`alg: none` never is/);
  });

  it("refuses another algorithm even with a valid-looking signature", async () => {
    const valid = await craftToken(craft);
    const [, payload, signature] = valid.split(".");
    const header = btoa(JSON.stringify({ alg: "HS512", typ: "at+jwt", kid: "sk_0" })).replace(/=+$/, "");
    await refused(`${header}.${payload}.${signature}`, /only HS256/);
  });

  it("refuses a token signed with another secret under the real key's id", async () => {
    const forged = await craftToken({ ...craft, secret: crypto.getRandomValues(new Uint8Array(32)) });
    await refused(forged, "the token's signature does not verify; it was altered or signed with another secret");
  });

  it("refuses a token whose claims were altered after signing", async () => {
    const [header, , signature] = (await craftToken(craft)).split(".");
    const payload = btoa(JSON.stringify({ sub: "ten_someone_else" })).replace(/=+$/, "");
    await refused(`${header}.${payload}.${signature}`, /signature does not verify/);
  });

  it("refuses a token naming a key this API does not have, or none", async () => {
    await refused(
      await craftToken({ ...craft, header: { kid: "sk_forged" } }),
      /signed by a key this API does not have/,
    );
    await refused(await craftToken({ ...craft, header: { kid: undefined } }), /does not name its signing key/);
  });

  it("refuses an expired token, and one minted for a second once the second has passed", async () => {
    await refused(
      await craftToken({ ...craft, claims: { iat: nowS() - 60, exp: nowS() - 1 } }),
      "the token has expired",
    );
    const { token } = await mintToken(tenant.key, { ttlSeconds: 1 });
    await new Promise((r) => setTimeout(r, 1_200));
    await refused(token, "the token has expired");
  });

  it("refuses a token for another audience, from another issuer, or of another type", async () => {
    await refused(await craftToken({ ...craft, claims: { aud: "cubicle:share" } }), /not meant for this API/);
    await refused(await craftToken({ ...craft, claims: { iss: "someone" } }), /not issued by Cubicle/);
    await refused(await craftToken({ ...craft, header: { typ: "JWT" } }), /not an access token/);
    await refused(await craftToken({ ...craft, claims: { nbf: nowS() + 60 } }), /not valid yet/);
  });

  it("refuses missing or malformed claims", async () => {
    await refused(await craftToken({ ...craft, claims: { jti: undefined } }), /claims are missing or malformed/);
    await refused(await craftToken({ ...craft, claims: { scopes: ["root"] } }), /claims are missing or malformed/);
    await refused(await craftToken({ ...craft, claims: { path: "/a/../b" } }), /claims are missing or malformed/);
    await refused(await craftToken({ ...craft, claims: { key: "key_nobody" } }), /minted from does not exist/);
  });

  it("refuses what is not a token at all", async () => {
    await refused("a.b", /neither a Cubicle API key .* nor a scoped token/);
    await refused("e30.e30.", /malformed/);
    await refused("!!!.???.***", /neither/);
    await refused(`${"a".repeat(5000)}.e30.x`, /malformed/);
  });

  it("keeps verifying tokens signed by an older key after rotation, and signs with the newer one", async () => {
    const keys = new SigningKeys(database(env.DB));
    const older = await keys.rotate();
    const before = await mintToken(tenant.key);
    const newer = await keys.rotate();
    const after = await mintToken(tenant.key);
    const kidOf = (token: string) => JSON.parse(atob(token.split(".")[0] as string)).kid;
    expect(kidOf(before.token)).toBe(older.id);
    expect(kidOf(after.token)).toBe(newer.id);
    for (const { token } of [before, after]) {
      expect((await call("GET", "/v1/account", { key: token })).status).toBe(200);
    }
  });
});
