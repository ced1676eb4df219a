/**
 * The one hook every screen reads the replica with, `useLiveQuery`: loading until the first
 * answer, then ready; it runs again when the replica changes; for new deps it is loading until
 * their own answer, never the last deps' answer; a record that is not (or no longer) there is
 * not-found, any other failure failed (an answer, never a throw); `keep` shows the last answer at
 * once on the next visit.
 */
import type { HivekeepClient } from "@hivekeep/client-core";
import { renderHook, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { describe, expect, it } from "vitest";
import { openTestClient, TestSession } from "../testing/render-screen.tsx";
import { seed } from "../testing/seed.ts";
import { useLiveQuery } from "./client.tsx";

const names = (c: HivekeepClient) =>
  c.apiaries.listApiaries({}).then((r) => r.apiaries.map((a) => a.name));

function wrapper(client: HivekeepClient) {
  return ({ children }: { children: ReactNode }) => (
    <TestSession client={client}>{children}</TestSession>
  );
}

describe("useLiveQuery", () => {
  const missing = "0190a000-0000-7000-8000-000000000000";

  it("is loading until the first answer, then ready, and runs again when the replica changes", async () => {
    const client = await openTestClient();
    await seed.apiary(client, { name: "Home meadow" });
    const { result } = renderHook(() => useLiveQuery(names, []), { wrapper: wrapper(client) });
    expect(result.current).toEqual({ status: "loading" });
    await waitFor(() =>
      expect(result.current).toEqual({ status: "ready", value: ["Home meadow"] }),
    );
    await seed.apiary(client, { name: "Forest edge" });
    await waitFor(() =>
      expect(result.current).toEqual({ status: "ready", value: ["Forest edge", "Home meadow"] }),
    );
  });

  it("runs again when a record changes, and answers the change", async () => {
    const client = await openTestClient();
    const home = await seed.apiary(client, { name: "Home meadow" });
    const { result } = renderHook(() => useLiveQuery(names, []), { wrapper: wrapper(client) });
    await waitFor(() =>
      expect(result.current).toEqual({ status: "ready", value: ["Home meadow"] }),
    );
    await client.apiaries.updateApiary({ id: home.id, name: "Home garden" });
    await waitFor(() =>
      expect(result.current).toEqual({ status: "ready", value: ["Home garden"] }),
    );
  });

  it("is loading for new deps until their own answer, never the last deps' answer", async () => {
    const client = await openTestClient();
    const home = await seed.apiary(client, { name: "Home meadow" });
    const forest = await seed.apiary(client, { name: "Forest edge" });
    const { result, rerender } = renderHook(
      ({ id }) =>
        useLiveQuery(async (c) => (await c.apiaries.getApiary({ id })).apiary?.name, [id]),
      { wrapper: wrapper(client), initialProps: { id: home.id } },
    );
    await waitFor(() => expect(result.current).toEqual({ status: "ready", value: "Home meadow" }));
    rerender({ id: forest.id });
    expect(result.current).toEqual({ status: "loading" });
    await waitFor(() => expect(result.current).toEqual({ status: "ready", value: "Forest edge" }));
  });

  it("goes from ready to not-found when the record is deleted meanwhile", async () => {
    const client = await openTestClient();
    const home = await seed.apiary(client, { name: "Home meadow" });
    const { result } = renderHook(
      () => useLiveQuery(async (c) => (await c.apiaries.getApiary({ id: home.id })).apiary, []),
      { wrapper: wrapper(client) },
    );
    await waitFor(() =>
      expect(result.current).toMatchObject({ status: "ready", value: { name: "Home meadow" } }),
    );
    await client.apiaries.deleteApiary({ id: home.id });
    await waitFor(() => expect(result.current).toEqual({ status: "not-found" }));
  });

  it("is not-found when the query answers undefined or a service says not_found", async () => {
    const client = await openTestClient();
    const undefinedAnswer = renderHook(
      () => useLiveQuery(async () => undefined as string | undefined, []),
      { wrapper: wrapper(client) },
    );
    await waitFor(() => expect(undefinedAnswer.result.current).toEqual({ status: "not-found" }));
    const notFound = renderHook(
      () => useLiveQuery((c) => c.apiaries.getApiary({ id: missing }), []),
      { wrapper: wrapper(client) },
    );
    await waitFor(() => expect(notFound.result.current).toEqual({ status: "not-found" }));
  });

  it("is failed, with the error, for any other failure (the replica could not be read)", async () => {
    const client = await openTestClient();
    const broken = new Error("storage is gone");
    const { result } = renderHook(
      () =>
        useLiveQuery(async () => {
          throw broken;
        }, []),
      { wrapper: wrapper(client) },
    );
    await waitFor(() => expect(result.current).toEqual({ status: "failed", error: broken }));
  });

  it("with keep, shows the last answer at once on the next mount while the query runs again", async () => {
    const client = await openTestClient();
    await seed.apiary(client, { name: "Home meadow" });
    const first = renderHook(() => useLiveQuery(names, [], { keep: "test:names" }), {
      wrapper: wrapper(client),
    });
    await waitFor(() =>
      expect(first.result.current).toEqual({ status: "ready", value: ["Home meadow"] }),
    );
    first.unmount();
    const second = renderHook(() => useLiveQuery(names, [], { keep: "test:names" }), {
      wrapper: wrapper(client),
    });
    expect(second.result.current).toEqual({ status: "ready", value: ["Home meadow"] });
    const other = renderHook(() => useLiveQuery(names, []), { wrapper: wrapper(client) });
    expect(other.result.current).toEqual({ status: "loading" });
  });
});
