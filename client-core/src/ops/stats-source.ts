/**
 * The figures of StatsService. The one accepted pair of implementations (DESIGN.md §6): SQL on
 * the server (server/src/store/stats.ts) for speed, TypeScript on a device (local-stats.ts), both
 * held to the same contract tests (test/contract/stats.test.ts). The rules both follow:
 *
 * - Only complete, live rows count. Honey figures are sums of amount_kg of live HARVEST events (a
 *   deleted harvest tombstones its event, so it drops). Sums are exact to the gram's fraction as
 *   decimal sums (0.1 + 0.2 kg is 0.3 kg).
 * - Years and months are calendar years and months in UTC.
 * - Tasks in other users' personal scopes are invisible.
 */

export interface DashboardQuery {
  readonly userId: string;
  /** RFC 3339: the operation's now. */
  readonly now: string;
  readonly thresholdDays: number;
  readonly nextTaskCount: number;
  readonly recentInspectionCount: number;
}

export interface DashboardFigures {
  readonly apiaries: number;
  readonly hives: number;
  readonly activeQueens: number;
  readonly openTasks: number;
  readonly overdueTasks: number;
  readonly honeyKgSeason: number;
  /**
   * Live hives whose last inspection is at least thresholdDays old (whole days, rounded down),
   * never-inspected hives first (-1), then the longest due, then by name (ascii fold) and id.
   */
  readonly dueInspections: readonly {
    readonly hiveId: string;
    readonly hiveName: string;
    readonly apiaryName: string;
    readonly daysSinceLast: number;
  }[];
  /** The next open tasks by due date (none last), then created_at, then id. */
  readonly nextTasks: readonly {
    readonly id: string;
    readonly title: string;
    readonly dueAt: string | null;
  }[];
  /** The latest inspections by date, then created_at, then id (all descending). */
  readonly recentInspections: readonly {
    readonly id: string;
    readonly hiveId: string;
    readonly date: string;
  }[];
  /** Honey per calendar month (UTC), oldest first. */
  readonly honeyHistory: readonly {
    readonly year: number;
    readonly month: number;
    readonly kg: number;
  }[];
}

export interface HoneyStat {
  readonly key: string;
  readonly label: string;
  readonly kg: number;
}

export interface HoneyFigures {
  /**
   * Labelled "<queen year> queen of <hive name>" (the queen's and hive's rows even when
   * tombstoned; "a removed hive" when the hive is unknown, "Queen <id>" when the queen is);
   * honey recorded while no queen reigned is one "No queen recorded" entry with key "".
   * Largest first, then label, then key.
   */
  readonly perQueen: readonly HoneyStat[];
  /** By the apiary frozen on each harvest, labelled by name ("Apiary <id>" if unknown). */
  readonly perApiary: readonly HoneyStat[];
  /** Key and label "2026"; oldest first. */
  readonly perYear: readonly HoneyStat[];
}

export interface StatsSource {
  dashboard(query: DashboardQuery): Promise<DashboardFigures>;
  /** `year` 0 = every year. */
  honey(year: number): Promise<HoneyFigures>;
}
