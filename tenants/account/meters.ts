/** The meters usage is recorded against. Issue-by-issue more of them get recorded. */
export const METERS = [
  "api_requests",
  "shell_ms",
  "javascript_ms",
  "container_ms",
  "storage_byte_hours",
  "egress_bytes",
] as const;

export type Meter = (typeof METERS)[number];

/**
 * One usage event. `id` is unique per thing measured (a request id, an exec id), so
 * recording the same event twice counts once.
 */
export interface UsageEvent {
  id: string;
  meter: Meter;
  quantity: number;
  /** RFC 3339. */
  at: string;
  workspaceId?: string | null;
  keyId?: string | null;
}

export interface UsagePoint {
  /** Start of the bucket, RFC 3339. */
  start: string;
  quantity: number;
}
