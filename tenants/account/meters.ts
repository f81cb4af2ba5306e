/** The meters usage is recorded against; prices and quotas per meter are in plans.ts. */
export const METERS = [
  "api_requests",
  "shell_ms",
  "javascript_ms",
  "container_ms",
  "storage_byte_hours",
  "egress_bytes",
] as const;

export type Meter = (typeof METERS)[number];

export interface UsagePoint {
  /** Start of the bucket, RFC 3339. */
  start: string;
  quantity: number;
}
