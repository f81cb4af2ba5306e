import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { database } from "../db.ts";
import { accountLimits } from "./limits.ts";
import { signingKeys } from "./schema.ts";
import { FIRST_KEY_ID, SigningKeys } from "./signingKeys.ts";

const db = () => database(env.DB);

beforeEach(async () => {
  // Each test starts from an empty keyring, in D1 and in this isolate's memory.
  await db().delete(signingKeys);
  SigningKeys.forgetCached();
});

describe("SigningKeys", () => {
  it("makes exactly one key on first use, however many callers race to make it", async () => {
    const made = await Promise.all(Array.from({ length: 5 }, () => new SigningKeys(db()).current()));
    expect(new Set(made.map((key) => key.id))).toEqual(new Set([FIRST_KEY_ID]));
    expect(new Set(made.map((key) => Buffer.from(key.secret).toString("hex"))).size).toBe(1);
    expect(made[0]?.secret.byteLength).toBe(32);
    expect(await db().select().from(signingKeys)).toHaveLength(1);
  });

  it("signs with the newest key after a rotation and still finds the older ones by id", async () => {
    const keys = new SigningKeys(db());
    const first = await keys.current();
    const second = await keys.rotate();
    expect((await keys.current()).id).toBe(second.id);
    expect((await keys.byId(first.id))?.secret).toEqual(first.secret);
    expect(await keys.byId("sk_missing")).toBeNull();
  });

  it("picks up a key added elsewhere when a token names it, at most once per refresh interval", async () => {
    let nowMs = Date.now();
    const keys = new SigningKeys(db(), () => nowMs);
    await keys.current();
    // Another isolate rotates: the row is in D1, not in this isolate's copy of the ring.
    const secret = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
    await db().insert(signingKeys).values({ id: "sk_zz", secret, createdAt: new Date().toISOString() });
    nowMs += accountLimits.signingKeyRefreshMinMs - 1;
    expect(await keys.byId("sk_zz")).toBeNull();
    nowMs += 1;
    expect((await keys.byId("sk_zz"))?.id).toBe("sk_zz");
  });
});
