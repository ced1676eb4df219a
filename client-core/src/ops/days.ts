/**
 * Days since an inspection, as the statistics count them (GetDashboard's due inspections, and
 * every screen that says a hive is due): whole 24-hour periods, rounded down, so the server's
 * SQL, the device and the app agree on when a hive becomes due.
 */
export const dayMs = 86_400_000;

export function wholeDaysSince(nowMs: number, atMs: number): number {
  return Math.floor((nowMs - atMs) / dayMs);
}
