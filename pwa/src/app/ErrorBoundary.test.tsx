/**
 * A screen that throws while it renders (a bug; live reads never throw, they answer `failed`)
 * shows what happened instead of a blank page, and going elsewhere clears it.
 */
import { render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { ErrorBoundary } from "./ErrorBoundary.tsx";

function Broken(): never {
  throw new Error("the screen broke");
}

describe("the error boundary", () => {
  it("says the screen could not be shown, and shows the next screen after a move", async () => {
    // React and the boundary report the error on the console; the test reads it on the page.
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    const { rerender } = render(
      <ErrorBoundary resetKey="/hives">
        <Broken />
      </ErrorBoundary>,
    );
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toMatch(/^This screen could not be shown: the screen broke/);
    rerender(
      <ErrorBoundary resetKey="/tasks">
        <p>Tasks</p>
      </ErrorBoundary>,
    );
    expect(screen.getByText("Tasks")).toBeTruthy();
    expect(screen.queryByRole("alert")).toBeNull();
    quiet.mockRestore();
  });
});
