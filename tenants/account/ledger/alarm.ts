/**
 * The tenant object's one alarm, kept at the soonest work due (TenantDO.alarm): a rollup
 * shortly after new events, the next hour boundary while any workspace holds bytes, the end
 * of the open period. The time it is set for is kept in memory, so asking for an alarm by a
 * time on the hot path (every admission) is one comparison.
 */
export class LedgerAlarm {
  private atMs: number | null = null;

  constructor(private readonly storage: DurableObjectStorage) {}

  /** Reads the alarm a previous instance set. */
  async load(): Promise<void> {
    this.atMs = await this.storage.getAlarm();
  }

  /** Whether an alarm is set. */
  get set(): boolean {
    return this.atMs !== null;
  }

  /** The alarm fired: none is set until the next `at` or `by`. */
  fired(): void {
    this.atMs = null;
  }

  /** Sets the alarm to the soonest of `candidates`. */
  at(...candidates: number[]): void {
    this.atMs = Math.min(...candidates);
    void this.storage.setAlarm(this.atMs);
  }

  /** Makes sure the alarm comes no later than `atMs`: an alarm already due sooner covers the new work too. */
  by(atMs: number): void {
    if (this.atMs !== null && this.atMs <= atMs) return;
    this.at(atMs);
  }
}
