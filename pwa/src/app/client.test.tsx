/**
 * The hooks every screen reads the replica with: `useLive` answers, runs again when the replica
 * changes, is undefined for new deps until their answer, and throws a failed query to the
 * nearest error boundary; `useLiveResult` makes the failure an answer instead.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import type { HivekeepClient } from "@hivekeep/client-core";
import { render, renderHook, screen, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { describe, expect, it, vi } from "vitest";
import { openTestClient, TestSession } from "../testing/render-screen.tsx";
import { seed } from "../testing/seed.ts";
import { useLive, useLiveQuery, useLiveResult } from "./client.tsx";
import { ErrorBoundary } from "./ErrorBoundary.tsx";

const names = (c: HivekeepClient) =>
  c.apiaries.listApiaries({}).then((r) => r.apiaries.map((a) => a.name));

function wrapper(client: HivekeepClient) {
  return ({ children }: { children: ReactNode }) => (
    <TestSession client={client}>{children}</TestSession>
  );
}

/** A screen whose query fails: the apiary it names is not on the device. */
function MissingApiary() {
  const name = useLive(
    (c) => c.apiaries.getApiary({ id: "0190a000-0000-7000-8000-000000000000" }),
    [],
  );
  return <p>{String(name)}</p>;
}

describe("useLive", () => {
  it("is undefined until the first answer, then answers", async () => {
    const client = await openTestClient();
    await seed.apiary(client, { name: "Home meadow" });
    const { result } = renderHook(() => useLive(names, []), { wrapper: wrapper(client) });
    expect(result.current).toBeUndefined();
    await waitFor(() => expect(result.current).toEqual(["Home meadow"]));
  });

  it("runs again when the replica changes", async () => {
    const client = await openTestClient();
    const { result } = renderHook(() => useLive(names, []), { wrapper: wrapper(client) });
    await waitFor(() => expect(result.current).toEqual([]));
    const home = await seed.apiary(client, { name: "Home meadow" });
    await waitFor(() => expect(result.current).toEqual(["Home meadow"]));
    await client.apiaries.updateApiary({ id: home.id, name: "Home garden" });
    await waitFor(() => expect(result.current).toEqual(["Home garden"]));
  });

  it("is undefined for new deps until their own answer, never the last deps' answer", async () => {
    const client = await openTestClient();
    const home = await seed.apiary(client, { name: "Home meadow" });
    const forest = await seed.apiary(client, { name: "Forest edge" });
    const { result, rerender } = renderHook(
      ({ id }) => useLive((c) => c.apiaries.getApiary({ id }).then((r) => r.apiary?.name), [id]),
      { wrapper: wrapper(client), initialProps: { id: home.id } },
    );
    await waitFor(() => expect(result.current).toBe("Home meadow"));
    rerender({ id: forest.id });
    expect(result.current).toBeUndefined();
    await waitFor(() => expect(result.current).toBe("Forest edge"));
  });

  it("throws a failed query to the nearest error boundary", async () => {
    const client = await openTestClient();
    // React and the boundary report the error on the console; the test reads it on the page.
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    render(
      <TestSession client={client}>
        <ErrorBoundary resetKey="/">
          <MissingApiary />
        </ErrorBoundary>
      </TestSession>,
    );
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toMatch(/^This screen could not be shown: /);
    quiet.mockRestore();
  });
});

describe("useLiveResult", () => {
  it("answers a value, and a failure as { error } when the record goes away", async () => {
    const client = await openTestClient();
    const home = await seed.apiary(client, { name: "Home meadow" });
    const { result } = renderHook(
      () => useLiveResult((c) => c.apiaries.getApiary({ id: home.id }), []),
      { wrapper: wrapper(client) },
    );
    await waitFor(() =>
      expect(result.current).toMatchObject({ value: { apiary: { name: "Home meadow" } } }),
    );
    await client.apiaries.deleteApiary({ id: home.id });
    await waitFor(() => expect(result.current).toHaveProperty("error"));
    const { error } = result.current as { error: unknown };
    expect(ConnectError.from(error).code).toBe(Code.NotFound);
  });
});

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
