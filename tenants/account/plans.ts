/**
 * Plans as data: what each plan costs, includes and allows. The gateway, the tenant's
 * ledger and the invoice all read these objects and nothing else, so a new plan is a new
 * entry here (or a custom plan handed to `TenantDO.setPlan` for a negotiated contract).
 * Money is integer micro-dollars; a unit price is `priceMicros` per `per` units, so
 * fractions of a micro-dollar per unit stay exact (amounts round up once per line).
 */
import type { ContainerResources } from "../../container/wire/index.ts";
import type { ExecutorName } from "../../executors/contract.ts";
import type { Meter } from "./meters.ts";

export interface MeterTerms {
  /** Units included each period. On a plan without overage this is a hard cap. */
  included: number;
  /** Price beyond `included`; null makes `included` a hard cap (requests past it are refused). */
  overage: { priceMicros: number; per: number } | null;
}

export interface Plan {
  id: string;
  name: string;
  /** Charged once per monthly period (prorated on upgrade, see docs/billing.md). */
  monthlyFeeMicros: number;
  /** Token bucket: sustained requests per second and the burst a full bucket allows. */
  rate: { perSecond: number; burst: number };
  /** Runs that may be in flight at once, per executor. */
  concurrency: Record<ExecutorName, number>;
  meters: Record<Meter, MeterTerms>;
  /** Total bytes across the tenant's workspaces; writes past it are refused. */
  storageBytesMax: number;
  /** Whether executors may be given network access. */
  egress: boolean;
  /** Each workspace's computer (the container executor): memory, processes, CPU and tmp for its commands together. */
  container: ContainerResources;
  /** Whether a spend cap may be set (only plans that can charge overage need one). */
  spendCap: boolean;
  /** The workspace time machine (docs/vfs.md, "Versions"): how far back every version is kept, and snapshots. */
  versions: VersionTerms;
  /** Whether users may choose this plan through `PUT /v1/billing/plan`. */
  public: boolean;
}

export interface VersionTerms {
  /** Every version of every file is kept this long; older ones only while a snapshot pins them. */
  historyWindowMs: number;
  /** Snapshots one workspace may hold at once. */
  snapshotsPerWorkspaceMax: number;
  /** Workspaces forked from one workspace that may exist at once (each is a workspace of its own, billed as one). */
  forksPerWorkspaceMax: number;
}

const MIB = 1024 ** 2;
const GIB = 1024 ** 3;
const HOUR_MS = 3_600_000;
/** A billing month in hours, as cloud storage prices count a GB-month. */
const MONTH_HOURS = 730;

const hardCap = (included: number): MeterTerms => ({ included, overage: null });

export const PLANS = {
  free: {
    id: "free",
    name: "Free",
    monthlyFeeMicros: 0,
    rate: { perSecond: 20, burst: 100 },
    concurrency: { shell: 4, javascript: 4, container: 1 },
    meters: {
      api_requests: hardCap(100_000),
      shell_ms: hardCap(10 * HOUR_MS),
      javascript_ms: hardCap(10 * HOUR_MS),
      container_ms: hardCap(2 * HOUR_MS),
      storage_byte_hours: hardCap(GIB * MONTH_HOURS),
      egress_bytes: hardCap(0),
      ai_images: hardCap(25),
    },
    storageBytesMax: GIB,
    egress: false,
    container: {
      // Enough for an npm install or a pandoc run; eight free computers fit in 4 GiB of host memory.
      memoryBytesMax: 512 * MIB,
      // A shell, a build tool and its workers; a fork bomb stops here within one poll.
      pidsMax: 128,
      // One core: a free workspace spinning every core it can still leaves the rest of a host to others.
      cpuMillicores: 1_000,
      // A package cache's worth of /tmp (and as much again for home); tmpfs pages count against memory too.
      tmpBytesMax: 256 * MIB,
    },
    versions: { historyWindowMs: HOUR_MS, snapshotsPerWorkspaceMax: 10, forksPerWorkspaceMax: 10 },
    spendCap: false,
    public: true,
  },
  pro: {
    id: "pro",
    name: "Pro",
    monthlyFeeMicros: 20_000_000,
    rate: { perSecond: 200, burst: 1_000 },
    concurrency: { shell: 50, javascript: 50, container: 10 },
    meters: {
      // $0.50 per million requests beyond 2 million.
      api_requests: { included: 2_000_000, overage: { priceMicros: 1, per: 2 } },
      // $0.02 per hour of shell or javascript time beyond 200 hours.
      shell_ms: { included: 200 * HOUR_MS, overage: { priceMicros: 20_000, per: HOUR_MS } },
      javascript_ms: { included: 200 * HOUR_MS, overage: { priceMicros: 20_000, per: HOUR_MS } },
      // $0.10 per container hour beyond 50.
      container_ms: { included: 50 * HOUR_MS, overage: { priceMicros: 100_000, per: HOUR_MS } },
      // $0.20 per GiB-month beyond 20 GiB-months.
      storage_byte_hours: {
        included: 20 * GIB * MONTH_HOURS,
        overage: { priceMicros: 200_000, per: GIB * MONTH_HOURS },
      },
      // $0.05 per GiB beyond 10 GiB.
      egress_bytes: { included: 10 * GIB, overage: { priceMicros: 50_000, per: GIB } },
      // $0.01 per image beyond 1,000.
      ai_images: { included: 1_000, overage: { priceMicros: 10_000, per: 1 } },
    },
    storageBytesMax: 100 * GIB,
    egress: true,
    container: {
      // Room for a TypeScript build, a test suite or a small model in memory.
      memoryBytesMax: 2 * GIB,
      // Parallel builds (make -j, a test runner's workers, each with threads).
      pidsMax: 512,
      // One and a half cores: on a 2-core host a busy computer still leaves half a core to the others.
      cpuMillicores: 1_500,
      // Caches of several package managers at once.
      tmpBytesMax: GIB,
    },
    versions: { historyWindowMs: 7 * 24 * HOUR_MS, snapshotsPerWorkspaceMax: 100, forksPerWorkspaceMax: 100 },
    spendCap: true,
    public: true,
  },
  /** For fleets of agents: a high rate, many runs at once, lower unit prices. */
  scale: {
    id: "scale",
    name: "Scale",
    monthlyFeeMicros: 500_000_000,
    rate: { perSecond: 2_000, burst: 10_000 },
    concurrency: { shell: 500, javascript: 500, container: 50 },
    meters: {
      // $0.25 per million requests beyond 50 million.
      api_requests: { included: 50_000_000, overage: { priceMicros: 1, per: 4 } },
      // $0.015 per hour of shell or javascript time beyond 2,000 hours.
      shell_ms: { included: 2_000 * HOUR_MS, overage: { priceMicros: 15_000, per: HOUR_MS } },
      javascript_ms: { included: 2_000 * HOUR_MS, overage: { priceMicros: 15_000, per: HOUR_MS } },
      // $0.08 per container hour beyond 500.
      container_ms: { included: 500 * HOUR_MS, overage: { priceMicros: 80_000, per: HOUR_MS } },
      // $0.15 per GiB-month beyond 200 GiB-months.
      storage_byte_hours: {
        included: 200 * GIB * MONTH_HOURS,
        overage: { priceMicros: 150_000, per: GIB * MONTH_HOURS },
      },
      // $0.04 per GiB beyond 100 GiB.
      egress_bytes: { included: 100 * GIB, overage: { priceMicros: 40_000, per: GIB } },
      // $0.008 per image beyond 20,000.
      ai_images: { included: 20_000, overage: { priceMicros: 8_000, per: 1 } },
    },
    storageBytesMax: 1024 * GIB,
    egress: true,
    container: {
      // Large builds and data work; still a fraction of a host, so one computer cannot starve its neighbours.
      memoryBytesMax: 4 * GIB,
      // Wide parallel builds and servers with many workers.
      pidsMax: 1_024,
      // The most that still leaves a 2-core host some CPU for its other computers and the daemons.
      cpuMillicores: 1_800,
      // Data sets unpacked to scratch space; half the computer's memory, which tmpfs pages count against.
      tmpBytesMax: 2 * GIB,
    },
    versions: { historyWindowMs: 30 * 24 * HOUR_MS, snapshotsPerWorkspaceMax: 1_000, forksPerWorkspaceMax: 1_000 },
    spendCap: true,
    public: true,
  },
} as const satisfies Record<string, Plan>;

/**
 * A plan's computer limits. An account's stored plan is a snapshot (TenantDO), and a snapshot
 * taken before plans had `container` lacks it: it gets the public plan's of the same id, or
 * the free plan's.
 */
export function containerResources(plan: Plan): ContainerResources {
  const stored = plan.container as ContainerResources | undefined;
  return stored ?? (PLANS as Record<string, Plan>)[plan.id]?.container ?? PLANS.free.container;
}

/**
 * A plan's version terms; a custom plan stored before they existed takes its namesake's, or
 * free's, term by term (a plan stored before forks has the rest but not `forksPerWorkspaceMax`).
 */
export function versionTerms(plan: Plan): VersionTerms {
  const stored = plan.versions as Partial<VersionTerms> | undefined;
  const fallback = (PLANS as Record<string, Plan>)[plan.id]?.versions ?? PLANS.free.versions;
  return { ...fallback, ...stored };
}

export function publicPlan(id: string): Plan | null {
  const plan = (PLANS as Record<string, Plan>)[id];
  return plan?.public ? plan : null;
}

/** The amount owed for `used` units of a meter: overage × price, rounded up to the micro-dollar. */
export function overageAmount(terms: MeterTerms, used: number): { overage: number; amountMicros: number } {
  const overage = Math.max(0, used - terms.included);
  if (!terms.overage || overage === 0) return { overage: terms.overage ? overage : 0, amountMicros: 0 };
  // BigInt: units × price can pass 2^53 (byte-hours) before the division brings it back.
  const numerator = BigInt(overage) * BigInt(terms.overage.priceMicros);
  const per = BigInt(terms.overage.per);
  return { overage, amountMicros: Number((numerator + per - 1n) / per) };
}
