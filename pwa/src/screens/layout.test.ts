/**
 * The shape the app's screens keep (docs/contributing.md, "The app's layers"): no file in
 * `screens/` grows past 300 lines (split a screen into component files well before), and no
 * screen imports the router (`app/AppRoutes.tsx`), which imports every screen.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const screens = fileURLToPath(new URL(".", import.meta.url));
const files = readdirSync(screens, { recursive: true, encoding: "utf8" })
  .filter((f) => /\.(ts|tsx|css)$/.test(f) && !/\.test\.tsx?$/.test(f))
  .map((f) => ({
    name: relative(screens, join(screens, f)),
    text: readFileSync(join(screens, f), "utf8"),
  }));

describe("pwa/src/screens", () => {
  it("has files to check", () => {
    expect(files.map((f) => f.name)).toContain("hives/HivePage.tsx");
  });

  it("has no file over 300 lines", () => {
    const long = files
      .map((f) => ({ name: f.name, lines: f.text.split("\n").length }))
      .filter((f) => f.lines > 300);
    expect(long).toEqual([]);
  });

  it("never imports the router, which imports every screen", () => {
    expect(files.filter((f) => f.text.includes("AppRoutes")).map((f) => f.name)).toEqual([]);
  });
});
