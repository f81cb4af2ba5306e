/** The meters usage is recorded against; prices and quotas per meter are in plans.ts. */
export const METERS = [
  "api_requests",
  "shell_ms",
  "javascript_ms",
  "container_ms",
  "storage_byte_hours",
  "egress_bytes",
  /** Images made by Workers AI for a run (`ws:ai`); counted per image, whatever its size. */
  "ai_images",
] as const;

export type Meter = (typeof METERS)[number];

export interface UsagePoint {
  /** Start of the bucket, RFC 3339. */
  start: string;
  quantity: number;
}
