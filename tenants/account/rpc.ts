/**
 * The tenant object's RPC surface as plain types: what the gateway, the workspaces and the
 * usage service send to TenantDO and what they get back. Kept apart from the object so a
 * caller can name them without importing the object's module.
 */
import type { ContainerResources } from "../../container/wire/index.ts";
import type { ExecutorName } from "../../executors/contract.ts";
import type { Meter } from "./meters.ts";

/** What admission checks for a request: the rate and request quota only, or also the storage caps (api/src/middleware/admits.ts). */
export type AdmissionNeed = "request" | "write" | "exec";

export type Denial = {
  ok: false;
  code: "rate_limited" | "quota_exceeded" | "spend_cap_reached" | "forbidden" | "not_found";
  detail: string;
  retryAfterSeconds?: number;
};

/** The IETF `RateLimit-Policy` and `RateLimit` header values after an admission. */
export interface RateHeaders {
  policy: string;
  limit: string;
}

export type Admission = ({ ok: true } | Denial) & {
  rate: RateHeaders;
  /** When the request named a workspace: whether the tenant has it (a missing one is a 404). */
  workspaceLive?: boolean;
};

export interface AdmitRequest {
  requestId: string;
  keyId: string | null;
  workspaceId: string | null;
  /** Writes and execs may add bytes, so they are refused at the storage cap; other requests are not. */
  need: AdmissionNeed;
}

export interface RunRequest {
  execId: string;
  executor: ExecutorName;
  timeoutMs: number;
  egress: boolean;
  workspaceId: string;
  keyId: string | null;
  /**
   * The API request that asks for the run, when the gateway left the request's admission to
   * the run (api/src/middleware/admit.ts): it is admitted and counted here first, exactly as
   * `admit` would with need `exec`, in the same step as the slot, and the answer carries the
   * rate headers. Absent: the request was admitted already.
   */
  request?: { requestId: string } | undefined;
}

/** A run may start: its timeout (cut to what a hard cap leaves) and, for container runs, its computer's limits. */
export type RunGrant = ({ ok: true; timeoutMs: number; resources?: ContainerResources } | Denial) & {
  /** Present when the run's request was admitted with it (`RunRequest.request`), refused or not. */
  rate?: RateHeaders;
};

export interface RunEnd {
  execId: string;
  executor: ExecutorName;
  durationMs: number;
  workspaceId: string;
  keyId: string | null;
  /** The workspace's size after the run, so storage integrates from the moment it changed. */
  storage?: { sizeBytes: number; revision: number } | undefined;
}

export interface BillingState {
  plan: string;
  /** A downgrade waiting for the end of the period. */
  pendingPlan: string | null;
  period: { start: string; end: string };
  spendCapMicros: number | null;
  /** Whether the plan takes a spend cap (plans that bill overage); on others setting one is refused. */
  spendCapAvailable: boolean;
  costSoFarMicros: number;
}

export interface QuotaRow {
  meter: Meter;
  /** null: no hard limit on this plan (usage past `included` is billed). */
  limit: number | null;
  included: number;
  used: number;
  remaining: number | null;
  resetsAt: string;
}

export interface Quotas {
  plan: string;
  period: { start: string; end: string };
  meters: QuotaRow[];
  storage: { limit: number; used: number };
}
