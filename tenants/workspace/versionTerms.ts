/**
 * The tenant plan's version terms as one workspace object applies them to itself: the
 * history window and the snapshot quota (docs/vfs.md "Versions").
 */
import { PLANS, type VersionTerms } from "../account/plans.ts";
import { parseWorkspaceObjectName } from "./names.ts";

/**
 * The terms, asked of the tenant's object once per object start (by the first mutation,
 * under the filesystem's lock, or the first snapshot); a failed ask is asked again next
 * time. An object without a tenant (tests that name objects freely) keeps no history window
 * and the free plan's snapshot quota.
 */
export function versionTermsOnce(env: Env, objectName: string | undefined): () => Promise<VersionTerms> {
  let terms: Promise<VersionTerms> | null = null;
  return () => {
    terms ??= (async () => {
      const owner = parseWorkspaceObjectName(objectName ?? "");
      return owner
        ? await env.TENANT.getByName(owner.tenantId).versionTerms()
        : { ...PLANS.free.versions, historyWindowMs: 0 };
    })().catch((error) => {
      terms = null;
      throw error;
    });
    return terms;
  };
}
