/** Limits of a run's egress policy (both egress paths), each with the reason it exists. */
export const egressLimits = {
  /** Entries in one run's allow list; every request is matched against all of them. */
  allowEntriesMax: 64,
  /** One entry as sent, before IDNA normalisation (a Unicode name is longer than its punycode). */
  allowEntryCharsMax: 512,
  /** A normalised host name, as DNS limits it (RFC 1035: 253 characters, labels of 63). */
  hostCharsMax: 253,
  hostLabelCharsMax: 63,
  /** Entries quoted back in a refusal, so the message stays one readable line. */
  refusalEntriesShownMax: 8,
} as const;
