import { describe, expect, it } from "vitest";
import { fileFormat, fileReaders } from "./read-file.ts";

describe("fileFormat", () => {
  it("takes the hint, and refuses an unknown one", () => {
    expect(fileFormat("{}", "csv")).toBe("inspections-csv");
    expect(fileFormat("a;b", "hivekeep")).toBe("hivekeep");
    expect(fileFormat("{}", "openbeehive")).toBe("openbeehive");
    expect(fileFormat("{}", "xlsx")).toBeUndefined();
  });

  it("detects a Hivekeep backup, an OpenBeehive backup and a spreadsheet", () => {
    expect(fileFormat('{"format":"hivekeep-backup","version":1}', "")).toBe("hivekeep");
    expect(fileFormat('\uFEFF  {"openbeehive_export" : true, "data": {}}', "")).toBe("openbeehive");
    expect(fileFormat("Datum;Stand;Volk\n01.05.2026;Home;1", "")).toBe("inspections-csv");
    expect(fileFormat("[1,2]", "")).toBe("hivekeep");
  });

  it("reads each format with its reader", async () => {
    const ctx = { now: new Date("2026-11-27T10:00:00Z"), newId: () => "n", authorId: "u" };
    const none = { apiaries: [], hives: [] };
    expect((await fileReaders.hivekeep())("{}", none, ctx as never).format).toBe("hivekeep");
    expect((await fileReaders.openbeehive())("{}", none, ctx as never).format).toBe("openbeehive");
    expect((await fileReaders["inspections-csv"]())("", none, ctx as never).format).toBe(
      "inspections-csv",
    );
  });
});
