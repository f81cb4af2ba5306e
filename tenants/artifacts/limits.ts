/** Limits of artifacts, each with the reason it exists. */
export const artifactLimits = {
  /**
   * Files in one artifact. Publishing costs an R2 head and put per new file and a download
   * an R2 get per file, all inside one request's subrequest budget; past a thousand files
   * an agent should publish an archive it built itself.
   */
  filesMax: 1_000,
  /**
   * Bytes in one artifact. Publishing holds the workspace's mutation lock while it hashes
   * and copies (so the copy is one consistent snapshot); 512 MiB keeps that to seconds.
   */
  bytesMax: 512 * 1024 * 1024,
  /** The file list is one D1 row, and D1 rows stop at 2 MB. */
  manifestBytesMax: 1024 * 1024,
  /** Largest page of `GET /v1/artifacts`, as every list. */
  listPageMax: 100,
} as const;
