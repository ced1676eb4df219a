/**
 * Every URL of the app, once: its name and its pattern, and from the pattern a builder for
 * links. This module imports no screen (the screens import it; the lazy screen list is beside the
 * router, in `AppRoutes.tsx`), so the app has no import cycle through its routes.
 *
 *   <Link href={paths.hive(h.id)}>   paths.hives   paths.newTask({ hive: id })
 *
 * A pattern's `:params` become the builder's arguments, in order; a pattern without one is its
 * own link. Query strings and fragments are not part of a pattern: the few links that carry one
 * say so below.
 */
export const routes = {
  dashboard: "/",
  apiaries: "/apiaries",
  newApiary: "/apiaries/new",
  apiary: "/apiaries/:id",
  editApiary: "/apiaries/:id/edit",
  hives: "/hives",
  /** Optionally in an apiary: `/hives/new?apiary=…` (`paths.newHive(apiaryId)`). */
  newHive: "/hives/new",
  hive: "/hives/:id",
  editHive: "/hives/:id/edit",
  relocateHive: "/hives/:id/relocate",
  /** A hive's printable stock card (issue 26). */
  stockCard: "/hives/:id/stock-card",
  inspect: "/hives/:id/inspect",
  newQueen: "/hives/:id/queen",
  newTreatment: "/hives/:id/treatment",
  newHarvest: "/hives/:id/harvest",
  inspection: "/inspections/:id",
  editInspection: "/inspections/:id/edit",
  editTreatment: "/treatments/:id/edit",
  editQueen: "/queens/:queenId/edit",
  tasks: "/tasks",
  /** Optionally for a hive or an apiary: `/tasks/new?hive=…` (`paths.newTask({ hive })`). */
  newTask: "/tasks/new",
  /** From the task list: `/tasks/…/edit?from=tasks` (`paths.editTask(id, "tasks")`), back there. */
  editTask: "/tasks/:id/edit",
  attention: "/sync",
  /** The treatment register: `/register?year=2026&apiary=…` (issue 26). */
  register: "/register",
  settings: "/settings",
  apiKeys: "/settings/api-keys",
  members: "/settings/members",
  /** Export and import (issue 26). */
  records: "/settings/records",
  /** An invitation link: the token rides in the fragment, so it never reaches a server log. */
  join: "/join",
} as const;

export type RouteName = keyof typeof routes;

/** One string per `:param` of a pattern, in order: `"/queens/:queenId/edit"` → `[string]`. */
type Args<P extends string> = P extends `${string}:${string}/${infer Rest}`
  ? [string, ...Args<`/${Rest}`>]
  : P extends `${string}:${string}`
    ? [string]
    : [];

/** A link to a pattern: the pattern itself, or a function of its params in order. */
type Builder<P extends string> = Args<P> extends [] ? P : (...values: Args<P>) => string;

/** Fills a pattern's params in order, each URL-encoded. */
export function fill(pattern: string, values: readonly string[]): string {
  let i = 0;
  return pattern.replace(/:\w+/g, () => encodeURIComponent(values[i++] ?? ""));
}

function builder(pattern: string): unknown {
  return pattern.includes(":") ? (...values: string[]) => fill(pattern, values) : pattern;
}

function query(pattern: string, params: Readonly<Record<string, string | undefined>>): string {
  const entries = Object.entries(params).filter(
    (e): e is [string, string] => e[1] !== undefined && e[1] !== "",
  );
  return entries.length === 0 ? pattern : `${pattern}?${new URLSearchParams(entries)}`;
}

type Paths = { readonly [K in RouteName]: Builder<(typeof routes)[K]> };

const built = Object.fromEntries(
  Object.entries(routes).map(([name, pattern]) => [name, builder(pattern)]),
) as Paths;

/** Links, by route name: `href={paths.hive(id)}`. */
export const paths = {
  ...built,
  newHive: (apiaryId?: string) => query(routes.newHive, { apiary: apiaryId }),
  /** Only one of the two is used: the hive when both are given. */
  newTask: (of?: { hive?: string; apiary?: string }) =>
    query(routes.newTask, of?.hive ? { hive: of.hive } : { apiary: of?.apiary }),
  /** Back to the task list after it when opened from there; else to the task's hive or apiary. */
  editTask: (id: string, from?: "tasks") => query(fill(routes.editTask, [id]), { from }),
  join: (token: string) => `${routes.join}#${token}`,
} as const;

/**
 * The routes in the order a router must try them: at the first segment where two patterns
 * differ, a fixed segment before a `:param` (`/hives/new` before `/hives/:id`). Patterns are
 * compared segment by segment (a `:param` after every fixed text), which is a total order; the
 * router matches whole paths, so patterns of different lengths never compete.
 */
export function routesInMatchOrder(): readonly { name: RouteName; pattern: string }[] {
  const key = (pattern: string) =>
    pattern.split("/").map((segment) => (segment.startsWith(":") ? "\u{10FFFF}" : segment));
  const compare = (a: readonly string[], b: readonly string[]) => {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const x = a[i] ?? "";
      const y = b[i] ?? "";
      if (x !== y) return x < y ? -1 : 1;
    }
    return a.length - b.length;
  };
  return (Object.entries(routes) as [RouteName, string][])
    .map(([name, pattern]) => ({ name, pattern }))
    .sort((a, b) => compare(key(a.pattern), key(b.pattern)));
}
