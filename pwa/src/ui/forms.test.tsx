/**
 * The form controls cannot be misread (issue 28): a stepper without a value says "not recorded"
 * (not a "—" beside its minus) and clears by a worded button apart from plus and minus; a number
 * field refuses a letter and says so, keeping what was typed before; a confirmation names its
 * action.
 */
import { columnSpec } from "@hivekeep/client-core/core";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { NumberField, notANumberPart, Stepper } from "./forms.tsx";
import { ConfirmButton } from "./page.tsx";

function StepperHere(props: { readonly start?: number }) {
  const [v, setV] = useState<number | undefined>(props.start);
  return <Stepper label="Boxes" value={v} onChange={setV} column={columnSpec("hive", "boxes")} />;
}

function NumberHere() {
  const [v, setV] = useState<number | undefined>();
  return (
    <>
      <NumberField
        label="Weight"
        value={v}
        onChange={setV}
        column={columnSpec("harvest", "amount_kg")}
      />
      <p data-testid="value">{v === undefined ? "none" : String(v)}</p>
    </>
  );
}

describe("form controls", () => {
  it("a stepper says 'not recorded' without a value, and clears by a worded button", async () => {
    const user = userEvent.setup();
    render(<StepperHere />);
    const group = screen.getByRole("group", { name: "Boxes" });
    expect(group.querySelector("output")?.textContent).toBe("not recorded");
    expect(group.textContent).not.toContain("—");
    expect(screen.queryByRole("button", { name: "Clear Boxes" })).toBeNull();

    await user.click(screen.getByRole("button", { name: "More Boxes" }));
    expect(group.querySelector("output")?.textContent).not.toBe("not recorded");
    const clear = screen.getByRole("button", { name: "Clear Boxes" });
    expect(clear.textContent).toBe("Clear");
    // Apart from plus: the last control of the row, never the one beside minus.
    expect(clear.previousElementSibling).toBe(screen.getByRole("button", { name: "More Boxes" }));
    await user.click(clear);
    expect(group.querySelector("output")?.textContent).toBe("not recorded");
  });

  it("a number field refuses a letter visibly and keeps what was typed", async () => {
    const user = userEvent.setup();
    render(<NumberHere />);
    const field = screen.getByRole("textbox", { name: "Weight" });
    await user.type(field, "12");
    expect(screen.getByTestId("value").textContent).toBe("12");
    await user.type(field, "k");
    expect(field).toHaveProperty("value", "12");
    expect(screen.getByTestId("value").textContent).toBe("12");
    expect(screen.getByRole("alert").textContent).toContain("“k” was not taken");
    expect(field.getAttribute("aria-invalid")).toBe("true");
    // The next digit is taken, and the message goes.
    await user.type(field, ",5");
    expect(screen.getByTestId("value").textContent).toBe("12.5");
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("knows what is no part of a number", () => {
    expect(notANumberPart("12,5")).toBeUndefined();
    expect(notANumberPart(" -0.5 ")).toBeUndefined();
    expect(notANumberPart("12kg")).toBe("k");
    expect(notANumberPart("abc")).toBe("a");
  });

  it("a confirmation asks with its question and answers with the action's name", async () => {
    const user = userEvent.setup();
    const onConfirm = vi.fn();
    render(
      <ConfirmButton
        label="Delete hive"
        confirm="Delete this hive?"
        confirmLabel="Delete hive"
        keepLabel="Keep"
        onConfirm={onConfirm}
      />,
    );
    await user.click(screen.getByRole("button", { name: "Delete hive" }));
    expect(screen.getByRole("alert").textContent).toBe("Delete this hive?");
    expect(screen.queryByRole("button", { name: /^(Yes|No)$/ })).toBeNull();
    await user.click(screen.getByRole("button", { name: "Keep" }));
    expect(onConfirm).not.toHaveBeenCalled();
    await user.click(screen.getByRole("button", { name: "Delete hive" }));
    await user.click(screen.getByRole("button", { name: "Delete hive" }));
    expect(onConfirm).toHaveBeenCalledOnce();
  });

  it("a confirmation without its action's name does not compile (no Yes / No to fall back on)", () => {
    const unnamed = (
      // @ts-expect-error confirmLabel is required
      <ConfirmButton label="Delete" confirm="Delete it?" keepLabel="Keep" onConfirm={() => {}} />
    );
    expect(unnamed.props.confirmLabel).toBeUndefined();
  });
});
