/**
 * The tenant plan's version terms as one workspace object applies them to itself: the
 * history window and the snapshot quota (docs/vfs.md "Versions").
 */
import { PLANS, type VersionTerms } from "../account/plans.ts";
import { parseWorkspaceObjectName } from "./names.ts";

/**
 * How long an object trusts the terms it was told before asking the tenant's object again:
 * a plan change reaches every workspace within this, without the tenant having to know
 * which objects are awake.
 */
export const versionTermsMaxAgeMs = 60_000;

/**
 * The terms, asked of the tenant's object and kept for `maxAgeMs`; `fresh` asks again now
 * (the snapshot quota does before it refuses, so an upgrade counts at once). A failed ask is
 * asked again next time. An object without a tenant (tests that name objects freely) keeps
 * no history window and the free plan's snapshot quota.
 */
export function tenantVersionTerms(
  env: Env,
  objectName: string | undefined,
  nowMs: () => number = Date.now,
  maxAgeMs = versionTermsMaxAgeMs,
): (fresh?: boolean) => Promise<VersionTerms> {
  let cached: { terms: Promise<VersionTerms>; askedMs: number } | null = null;
  const ask = async () => {
    const owner = parseWorkspaceObjectName(objectName ?? "");
    return owner
      ? await env.TENANT.getByName(owner.tenantId).versionTerms()
      : { ...PLANS.free.versions, historyWindowMs: 0 };
  };
  return (fresh = false) => {
    const now = nowMs();
    if (fresh || cached === null || now - cached.askedMs >= maxAgeMs) {
      const terms: Promise<VersionTerms> = ask().catch((error) => {
        if (cached?.terms === terms) cached = null;
        throw error;
      });
      cached = { terms, askedMs: now };
    }
    return cached.terms;
  };
}

/**
 * Why one more snapshot is refused, or null. Refused by what this object was told, it asks
 * again before saying no: the plan may have grown since.
 */
export async function snapshotQuotaRefusal(
  terms: (fresh?: boolean) => Promise<VersionTerms>,
  snapshots: number,
): Promise<string | null> {
  let { snapshotsPerWorkspaceMax: max } = await terms();
  if (snapshots >= max) ({ snapshotsPerWorkspaceMax: max } = await terms(true));
  return snapshots >= max ? `this plan keeps at most ${max} snapshots per workspace; delete one first` : null;
}
