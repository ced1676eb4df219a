/**
 * Withdrawal periods, one rule for the server and every device (issue 26): honey taken from a
 * hive while a treatment's withdrawal period runs must not be sold as ordinary honey. A
 * treatment's period runs from its date (given) until `withdrawal_until` (exclusive); none
 * without a `withdrawal_until`.
 *
 * The rule reads times in any form the callers hold them: a proto Timestamp (the app's
 * messages), an RFC 3339 string (stored rows) or a Date.
 */

/** A point in time as a proto Timestamp, an RFC 3339 string or a Date. */
export type Instant = Date | string | { readonly seconds: bigint; readonly nanos: number };

/** Milliseconds since the epoch; undefined when unset or not a time. */
export function instantMs(x: Instant | null | undefined): number | undefined {
  if (x === null || x === undefined || x === "") return undefined;
  if (x instanceof Date) return Number.isNaN(x.getTime()) ? undefined : x.getTime();
  if (typeof x === "string") {
    const ms = Date.parse(x);
    return Number.isNaN(ms) ? undefined : ms;
  }
  return Number(x.seconds) * 1000 + Math.floor(x.nanos / 1_000_000);
}

/** What the rule needs of a treatment. */
export interface WithdrawalSource {
  readonly hiveId: string;
  /** When it was given. */
  readonly date?: Instant | null;
  /** When its withdrawal period ends; unset = none. */
  readonly withdrawalUntil?: Instant | null;
}

/** Whether a treatment's withdrawal period has not ended at `at` (it ends at withdrawalUntil). */
export function withdrawalRunning(t: Pick<WithdrawalSource, "withdrawalUntil">, at: Date): boolean {
  const until = instantMs(t.withdrawalUntil);
  return until !== undefined && until > at.getTime();
}

/** Whether a treatment's withdrawal period covers `at`: given on or before it, ending after it. */
export function withdrawalCovers(t: WithdrawalSource, at: Date): boolean {
  const given = instantMs(t.date);
  if (given !== undefined && given > at.getTime()) return false;
  return withdrawalRunning(t, at);
}

/**
 * The treatment whose withdrawal period covers `at` (given on or before `at`, ending after it);
 * of several, the one that ends last. Undefined when honey taken at `at` is clear of all.
 * The caller passes the treatments of one hive (or uses `harvestWithdrawal`).
 */
export function withdrawalAt<T extends WithdrawalSource>(
  treatments: readonly T[],
  at: Date,
): T | undefined {
  let found: T | undefined;
  let foundEnd = 0;
  for (const t of treatments) {
    if (!withdrawalCovers(t, at)) continue;
    const end = instantMs(t.withdrawalUntil) ?? 0;
    if (found === undefined || end > foundEnd) {
      found = t;
      foundEnd = end;
    }
  }
  return found;
}

/**
 * The treatment of the harvest's own hive whose withdrawal period covers the harvest's date
 * (the one ending last), or undefined when the harvest is clear. Derived, never stored: a
 * treatment entered later marks an earlier harvest too.
 */
export function harvestWithdrawal<T extends WithdrawalSource>(
  harvest: { readonly hiveId: string; readonly date?: Instant | null },
  treatments: readonly T[],
): T | undefined {
  const at = instantMs(harvest.date);
  if (at === undefined) return undefined;
  return withdrawalAt(
    treatments.filter((t) => t.hiveId === harvest.hiveId),
    new Date(at),
  );
}

/** A running withdrawal period: the treatment and when the period ends. */
export interface RunningWithdrawal<T> {
  readonly treatment: T;
  readonly until: Date;
}

/**
 * Every withdrawal period running at `at` (covering it), soonest end first (then by hive id):
 * of the organization, or of one hive when `hiveId` is given.
 */
export function runningWithdrawals<T extends WithdrawalSource>(
  treatments: readonly T[],
  at: Date,
  hiveId?: string,
): RunningWithdrawal<T>[] {
  const out: RunningWithdrawal<T>[] = [];
  for (const t of treatments) {
    if (hiveId !== undefined && t.hiveId !== hiveId) continue;
    if (!withdrawalCovers(t, at)) continue;
    out.push({ treatment: t, until: new Date(instantMs(t.withdrawalUntil) ?? 0) });
  }
  return out.sort(
    (a, b) =>
      a.until.getTime() - b.until.getTime() ||
      (a.treatment.hiveId < b.treatment.hiveId
        ? -1
        : a.treatment.hiveId > b.treatment.hiveId
          ? 1
          : 0),
  );
}

/** Per hive, the end of its withdrawal period running at `at` (the latest of several). */
export function withdrawalEndsByHive<T extends WithdrawalSource>(
  treatments: readonly T[],
  at: Date,
): Map<string, Date> {
  const ends = new Map<string, Date>();
  for (const { treatment, until } of runningWithdrawals(treatments, at)) {
    const seen = ends.get(treatment.hiveId);
    if (seen === undefined || until > seen) ends.set(treatment.hiveId, until);
  }
  return ends;
}
