import { describe, expect, it } from "vitest";
import { fill, paths, type RouteName, routes, routesInMatchOrder } from "./paths.ts";

/** Whether a whole path matches a pattern, as wouter's (regexparam's) matcher reads one. */
const matches = (pattern: string, path: string) =>
  new RegExp(`^${pattern.replace(/:\w+/g, "([^/]+?)")}/?$`, "i").test(path);

/** The first route, in the router's order, whose pattern matches a path (as wouter's Switch). */
function routeOf(path: string): RouteName | undefined {
  return routesInMatchOrder().find(({ pattern }) => matches(pattern, path))?.name;
}

describe("paths", () => {
  it("builds each link from its route's pattern, params in order and encoded", () => {
    expect(paths.dashboard).toBe("/");
    expect(paths.hives).toBe("/hives");
    expect(paths.hive("h1")).toBe("/hives/h1");
    expect(paths.editQueen("q 1")).toBe("/queens/q%201/edit");
    expect(paths.relocateHive("h1")).toBe("/hives/h1/relocate");
    expect(fill("/a/:x/b/:y", ["1", "2"])).toBe("/a/1/b/2");
  });

  it("puts the few query strings and the fragment where the screens read them", () => {
    expect(paths.newHive()).toBe("/hives/new");
    expect(paths.newHive("a1")).toBe("/hives/new?apiary=a1");
    expect(paths.newTask()).toBe("/tasks/new");
    expect(paths.newTask({ hive: "h1" })).toBe("/tasks/new?hive=h1");
    expect(paths.newTask({ apiary: "a1" })).toBe("/tasks/new?apiary=a1");
    expect(paths.newTask({ hive: "h1", apiary: "a1" })).toBe("/tasks/new?hive=h1");
    expect(paths.join("tok")).toBe("/join#tok");
    expect(paths.editTask("t1")).toBe("/tasks/t1/edit");
    expect(paths.editTask("t1", "tasks")).toBe("/tasks/t1/edit?from=tasks");
  });

  it("routes every link to its own route: a fixed segment wins over a :param", () => {
    const sample = (name: RouteName) => fill(routes[name], ["x1"]);
    for (const name of Object.keys(routes) as RouteName[]) {
      expect(routeOf(sample(name)), `${name}: ${sample(name)}`).toBe(name);
    }
    expect(routeOf("/hives/new")).toBe("newHive");
    expect(routeOf("/apiaries/new")).toBe("newApiary");
    expect(routeOf("/tasks/new")).toBe("newTask");
    expect(routeOf("/hives/new/edit")).toBe("editHive");
    expect(routeOf("/nowhere")).toBeUndefined();
  });

  it("orders the routes the same whatever order the table lists them in", () => {
    const names = routesInMatchOrder().map((r) => r.name);
    expect(new Set(names).size).toBe(Object.keys(routes).length);
    expect(names.indexOf("newHive")).toBeLessThan(names.indexOf("hive"));
    expect(names.indexOf("newApiary")).toBeLessThan(names.indexOf("apiary"));
  });
});
