/** Limits of the workspace room, each with the reason it exists. */
export const workspaceLimits = {
  /** Linux PATH_MAX; tools in the container executor cannot use longer paths anyway. */
  pathLengthMax: 4096,
  /** Linux NAME_MAX, in bytes. */
  nameLengthMax: 255,
  /** Chunks stay well under the 2 MB Durable Object SQLite row limit. */
  chunkBytes: 512 * 1024,
  /** One upload in this first file store; the streaming VFS raises it. */
  fileBytesMax: 256 * 1024 * 1024,
  /** Metadata labels are for filtering, not storage. */
  metadataKeysMax: 32,
  metadataKeyLengthMax: 64,
  metadataValueLengthMax: 512,
} as const;
