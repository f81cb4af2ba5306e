/**
 * The tenant object's test seam: its clock and the crash points inside a rollup. Production
 * never installs anything, so every tenant reads `Date.now()` and has no faults. Tests run
 * in the same isolate as the objects they drive, so they install hooks here by tenant name
 * rather than reaching into an instance: the hooks survive an eviction (a new instance reads
 * the same entry) and the production class carries no mutable public fields.
 */
export interface TenantHooks {
  /** The clock every decision reads. */
  now(): number;
  /** Called after a rollup batch is picked, before it is sent to D1. */
  afterOpen(): void;
  /** Called after a batch reached D1, before it is marked applied. */
  afterApply(): void;
}

const installed = new Map<string, Partial<TenantHooks>>();

/** Replaces hooks of the tenant named `tenantId` (merged over what is installed); `null` removes them all. */
export function installTenantHooks(tenantId: string, hooks: Partial<TenantHooks> | null): void {
  if (hooks === null) installed.delete(tenantId);
  else installed.set(tenantId, { ...installed.get(tenantId), ...hooks });
}

/** The hooks one tenant object reads through: whatever is installed for its name at each call, else the defaults. */
export function tenantHooks(tenantId: string): TenantHooks {
  return {
    now: () => installed.get(tenantId)?.now?.() ?? Date.now(),
    afterOpen: () => installed.get(tenantId)?.afterOpen?.(),
    afterApply: () => installed.get(tenantId)?.afterApply?.(),
  };
}
