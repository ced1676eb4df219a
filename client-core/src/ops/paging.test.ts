import { create } from "@bufbuild/protobuf";
import { ConnectError } from "@connectrpc/connect";
import { PageRequestSchema } from "@hivekeep/proto";
import { describe, expect, it } from "vitest";
import { pageResponse, pageWindow } from "./paging.ts";

const req = (pageSize: number, pageToken = "") =>
  create(PageRequestSchema, { pageSize, pageToken });

describe("pageWindow", () => {
  it("defaults to the first 50 rows", () => {
    expect(pageWindow(undefined)).toEqual({ offset: 0, limit: 50 });
    expect(pageWindow(req(0))).toEqual({ offset: 0, limit: 50 });
  });
  it("caps the page size at 500", () => {
    expect(pageWindow(req(501))).toEqual({ offset: 0, limit: 500 });
  });
  it("reads the offset token", () => {
    expect(pageWindow(req(10, "40"))).toEqual({ offset: 40, limit: 10 });
  });
  it("rejects bad tokens and negative sizes", () => {
    expect(() => pageWindow(req(10, "x"))).toThrow(ConnectError);
    expect(() => pageWindow(req(10, "-5"))).toThrow(ConnectError);
    expect(() => pageWindow(req(-1))).toThrow(ConnectError);
  });
});

describe("pageResponse", () => {
  it("sets nextPageToken only for a full page with more rows", () => {
    expect(pageResponse({ offset: 0, limit: 10 }, 10, 25).nextPageToken).toBe("10");
    expect(pageResponse({ offset: 20, limit: 10 }, 5, 25).nextPageToken).toBe("");
    expect(pageResponse({ offset: 10, limit: 10 }, 10, 20).nextPageToken).toBe("");
    expect(pageResponse({ offset: 0, limit: 10 }, 3, 3).total).toBe(3);
  });
});
