import { describe, expect, it } from "vitest";
import { RequestBody } from "./rpc-edge.ts";

/** A body that sends `chunks` and then fails, as one whose client went away mid-upload. */
function cutShort(...chunks: string[]): ReadableStream<Uint8Array> {
  const rest = chunks.map((c) => new TextEncoder().encode(c));
  return new ReadableStream({
    pull(controller) {
      const chunk = rest.shift();
      if (chunk) controller.enqueue(chunk);
      else controller.error(new Error("Client connection prematurely closed."));
    },
  });
}

describe("RequestBody", () => {
  it("fails Connect's read of a body cut short, so a prefix is never taken for the request", async () => {
    const read = async () => {
      for await (const _ of new RequestBody(cutShort("first half"))) {
        // read it all
      }
    };
    await expect(read()).rejects.toThrow(/prematurely closed/);
  });

  it("drains what Connect left, and a body cut short ends the drain", async () => {
    const body = new RequestBody(cutShort("a", "b"));
    const it = body[Symbol.asyncIterator]();
    expect((await it.next()).done).toBe(false);
    await it.return?.();
    expect(body.ended).toBe(false);
    expect(await body.drain(10)).toBe(true);
    expect(body.ended).toBe(true);
  });

  it("stops draining over its bound", async () => {
    const body = new RequestBody(cutShort("0123456789", "0123456789"));
    expect(await body.drain(15)).toBe(false);
  });
});
