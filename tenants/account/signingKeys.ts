/**
 * The keyring that signs what the platform issues as JWTs: scoped tokens, share links and
 * dashboard sessions (each with its own audience, see jwt.ts). HS256 secrets live
 * in D1, so every isolate in every region signs and verifies with the same keys, and a
 * deployment needs no secret set by hand: the first key is made on first use.
 *
 * Rotation adds a key. The newest one signs from then on; older ones keep verifying what
 * they signed (a token names its key in the `kid` header) until that has expired — a day at
 * most — and can then be deleted. Each isolate keeps the ring for `signingKeyCacheTtlMs`,
 * and re-reads it sooner when a token names a key it has not seen.
 */
import { desc } from "drizzle-orm";
import { base64url } from "jose";
import { type Db, nowIso } from "../db.ts";
import { newId } from "../ids.ts";
import { accountLimits } from "./limits.ts";
import { signingKeys } from "./schema.ts";

export interface SigningKey {
  id: string;
  /** 32 random bytes: HS256's full strength (RFC 7518 §3.2 asks for at least the hash size). */
  secret: Uint8Array;
  createdAt: string;
}

/**
 * The key made on first use. Fixed, so isolates racing to make it insert one row (the
 * others' inserts are ignored and they read the winner's); `sk_0` sorts before every
 * generated id, so ordering by id is ordering by age.
 */
export const FIRST_KEY_ID = "sk_0";

interface Ring {
  /** Newest first. */
  keys: SigningKey[];
  loadedAtMs: number;
}

/** One per isolate; see the file comment for how long it is trusted. */
let ring: Ring | null = null;

export class SigningKeys {
  constructor(
    private readonly db: Db,
    private readonly nowMs: () => number = Date.now,
  ) {}

  /** The key that signs: the newest, made on first use. */
  async current(): Promise<SigningKey> {
    const newest = (await this.load(false))[0];
    if (newest) return newest;
    await this.db.insert(signingKeys).values(generate(FIRST_KEY_ID)).onConflictDoNothing();
    const made = (await this.load(true))[0];
    if (!made) throw new Error("the first signing key was inserted but cannot be read back");
    return made;
  }

  /** The key a token names, or null when there is none (forged, or deleted after rotation). */
  async byId(id: string): Promise<SigningKey | null> {
    const known = (await this.load(false)).find((key) => key.id === id);
    if (known) return known;
    // A key added elsewhere since this isolate last looked: re-read, but not for every forged kid.
    const age = this.nowMs() - (ring?.loadedAtMs ?? Number.NEGATIVE_INFINITY);
    if (age < accountLimits.signingKeyRefreshMinMs) return null;
    return (await this.load(true)).find((key) => key.id === id) ?? null;
  }

  /** Forgets this isolate's copy of the ring, so the next use reads D1 (after deleting a retired key; tests). */
  static forgetCached(): void {
    ring = null;
  }

  /** Adds a newer key, which signs from now on; existing tokens keep verifying with theirs. */
  async rotate(): Promise<SigningKey> {
    const row = generate(newId("sk", this.nowMs()));
    await this.db.insert(signingKeys).values(row);
    await this.load(true);
    return decode(row);
  }

  private async load(fresh: boolean): Promise<SigningKey[]> {
    const now = this.nowMs();
    if (!fresh && ring && now - ring.loadedAtMs < accountLimits.signingKeyCacheTtlMs) return ring.keys;
    const rows = await this.db.select().from(signingKeys).orderBy(desc(signingKeys.id));
    ring = { keys: rows.map(decode), loadedAtMs: now };
    return ring.keys;
  }
}

function generate(id: string): typeof signingKeys.$inferInsert & typeof signingKeys.$inferSelect {
  return { id, secret: base64url.encode(crypto.getRandomValues(new Uint8Array(32))), createdAt: nowIso() };
}

function decode(row: typeof signingKeys.$inferSelect): SigningKey {
  return { id: row.id, secret: base64url.decode(row.secret), createdAt: row.createdAt };
}
