/**
 * The full-screen viewer's gestures and ways out, in happy-dom: two pointers moving apart zoom in,
 * the buttons zoom and page, and the browser's back closes the viewer (its own history entry).
 */
import { act, fireEvent, render, screen } from "@testing-library/react";
import { StrictMode, useState } from "react";
import { describe, expect, it } from "vitest";
import { PhotoViewer } from "./PhotoViewer.tsx";

const photos = ["data:image/png;base64,AAAA", "data:image/png;base64,BBBB"];

function Harness() {
  const [index, setIndex] = useState<number | undefined>(0);
  return index === undefined ? (
    <p>closed</p>
  ) : (
    <PhotoViewer
      photos={photos}
      index={index}
      onIndex={setIndex}
      onClose={() => setIndex(undefined)}
    />
  );
}

const scale = () => Number(screen.getByRole("img").getAttribute("data-scale"));

describe("PhotoViewer", () => {
  it("zooms in when two fingers move apart, and back to fitted with the button", () => {
    render(<Harness />);
    const stage = screen.getByRole("img").parentElement as HTMLElement;
    expect(scale()).toBe(1);
    fireEvent.pointerDown(stage, { pointerId: 1, clientX: 100, clientY: 100 });
    fireEvent.pointerDown(stage, { pointerId: 2, clientX: 200, clientY: 100 });
    fireEvent.pointerMove(stage, { pointerId: 2, clientX: 300, clientY: 100 });
    expect(scale()).toBe(2);
    fireEvent.pointerUp(stage, { pointerId: 2 });
    fireEvent.pointerUp(stage, { pointerId: 1 });
    fireEvent.click(screen.getByRole("button", { name: "Fit to screen" }));
    expect(scale()).toBe(1);
  });

  it("zooms with the buttons, pages, and starts each photo fitted", () => {
    render(<Harness />);
    fireEvent.click(screen.getByRole("button", { name: "Zoom in" }));
    expect(scale()).toBe(1.5);
    fireEvent.click(screen.getByRole("button", { name: "Zoom out" }));
    expect(scale()).toBe(1);
    expect(screen.getByRole("button", { name: "Previous photo" })).toHaveProperty("disabled", true);
    fireEvent.click(screen.getByRole("button", { name: "Zoom in" }));
    fireEvent.click(screen.getByRole("button", { name: "Next photo" }));
    expect(screen.getByText("Photo 2 of 2")).toBeTruthy();
    expect(scale()).toBe(1);
  });

  it("closes on the browser's back, through its own history entry", async () => {
    history.replaceState(null, ""); // the other tests' viewers left their entry current
    const before = history.length;
    render(<Harness />);
    expect(history.length).toBe(before + 1);
    await act(async () => {
      window.dispatchEvent(new PopStateEvent("popstate"));
    });
    expect(screen.getByText("closed")).toBeTruthy();
  });

  it("puts one history entry even when mounted twice (React's StrictMode in development)", () => {
    history.replaceState(null, "");
    const before = history.length;
    render(
      <StrictMode>
        <Harness />
      </StrictMode>,
    );
    expect(history.length).toBe(before + 1);
  });
});
