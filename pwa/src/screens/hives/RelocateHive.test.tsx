/**
 * Moving a hive: the date of the move is now by default, the picker offers no day after today,
 * and a date in the future is refused with the rule's words (core/happened.ts), writing nothing.
 */
import { fireEvent } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { openTestClient, renderAt } from "../../testing/render-screen.tsx";
import { seed } from "../../testing/seed.ts";

describe("moving a hive", () => {
  it("offers no day after today and refuses a move dated in the future (issue 25)", async () => {
    const client = await openTestClient();
    const home = await seed.apiary(client, { name: "Home meadow" });
    await seed.apiary(client, { name: "Forest edge" });
    const hive = await seed.hive(client, { apiaryId: home.id, name: "Hive 1" });
    const app = await renderAt(`/hives/${hive.id}/relocate`, { client });
    const date = (await app.findByLabelText(/^Moved on/)) as HTMLInputElement;
    expect(date.value).toBe("2026-06-15T12:00"); // testNow
    expect(date.max).toBe("2026-06-15T23:59");

    fireEvent.change(date, { target: { value: "2026-07-01T09:00" } });
    await app.user.click(app.getByRole("button", { name: "Move hive" }));
    expect(app.getByRole("alert").textContent).toBe(
      "This date is in the future. Enter when it happened: today at the latest.",
    );
    expect(document.activeElement).toBe(date);
    expect((await client.hives.getHive({ id: hive.id })).hive?.apiaryId).toBe(home.id);

    fireEvent.change(date, { target: { value: "2026-06-15T12:00" } });
    await app.user.click(app.getByRole("button", { name: "Move hive" }));
    await app.findByRole("heading", { level: 1, name: "Hive 1" });
    expect((await client.hives.getHive({ id: hive.id })).hive?.apiaryId).not.toBe(home.id);
  });
});
