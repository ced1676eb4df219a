import { create } from "@bufbuild/protobuf";
import { Code } from "@connectrpc/connect";
import { PageRequestSchema } from "@hivekeep/proto";
import { describe, expect, it } from "vitest";
import { toConnectError } from "./errors.ts";
import { pageResponse, pageWindow } from "./paging.ts";

const req = (pageSize: number, pageToken = "") =>
  create(PageRequestSchema, { pageSize, pageToken });

/** The error a caller sees for `pageWindow(page)`, as the wire carries it. */
function refusal(page: ReturnType<typeof req>): { code: Code; message: string } {
  try {
    pageWindow(page);
  } catch (err) {
    const { code, rawMessage } = toConnectError(err);
    return { code, message: rawMessage };
  }
  throw new Error("pageWindow accepted the page");
}

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
    expect(refusal(req(10, "x"))).toEqual({
      code: Code.InvalidArgument,
      message: 'page.pageToken "x" is not valid; pass back nextPageToken',
    });
    expect(refusal(req(10, "-5"))).toEqual({
      code: Code.InvalidArgument,
      message: 'page.pageToken "-5" is not valid; pass back nextPageToken',
    });
    expect(refusal(req(-1))).toEqual({
      code: Code.InvalidArgument,
      message: "page.pageSize must not be negative",
    });
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
