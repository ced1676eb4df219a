/**
 * "Now" of the screens and the forms' default dates (issue 25): the device's server-corrected
 * clock (`client.now()`), not the raw wall clock, so a phone whose clock runs ahead proposes no
 * date its services refuse; a NowProvider (tests) fixes it; outside a session, the wall clock.
 */
import { renderHook } from "@testing-library/react";
import type { ReactNode } from "react";
import { describe, expect, it } from "vitest";
import { testNow } from "../testing/clock.ts";
import { openTestClient, TestSession } from "../testing/render-screen.tsx";
import { NowProvider, useNow } from "./now.tsx";

describe("useNow", () => {
  it("is the device client's now in a session: the wall clock corrected by the server's offset", async () => {
    const client = await openTestClient();
    // The wall clock (faked: testNow) runs two days ahead of the server's.
    const corrected = new Date(testNow.getTime() - 2 * 24 * 3_600_000);
    const device = { ...client, now: () => corrected };
    const wrapper = ({ children }: { children: ReactNode }) => (
      <TestSession client={device}>{children}</TestSession>
    );
    expect(renderHook(() => useNow(), { wrapper }).result.current).toEqual(corrected);
    // A real client with no offset yet is on the wall clock.
    const plain = ({ children }: { children: ReactNode }) => (
      <TestSession client={client}>{children}</TestSession>
    );
    expect(renderHook(() => useNow(), { wrapper: plain }).result.current).toEqual(testNow);
  });

  it("is the fixed time of a NowProvider, and the wall clock outside a session", () => {
    const fixed = new Date(2026, 0, 2, 12);
    const wrapper = ({ children }: { children: ReactNode }) => (
      <NowProvider now={fixed}>{children}</NowProvider>
    );
    expect(renderHook(() => useNow(), { wrapper }).result.current).toEqual(fixed);
    expect(renderHook(() => useNow()).result.current).toEqual(testNow);
  });
});
