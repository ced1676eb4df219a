/**
 * How many days of photos the device keeps for use offline: 30 unless set in Settings, kept on
 * this device; cleared, it goes back to 30.
 */
import { defaultKeepDays } from "@hivekeep/client-core";
import { afterEach, describe, expect, it } from "vitest";
import { readPhotoKeepDays, writePhotoKeepDays } from "../../hooks/usePhotoKeepDays.ts";
import { openTestClient, renderAt } from "../../testing/render-screen.tsx";

afterEach(() => {
  writePhotoKeepDays(undefined);
});

describe("the days of photos kept on the device", () => {
  it("is 30 unless set in Settings, and 30 again when cleared", async () => {
    expect(readPhotoKeepDays()).toBe(defaultKeepDays);
    const client = await openTestClient();
    const settings = await renderAt("/settings", { client });
    const field = await settings.findByRole("textbox", { name: /Keep photos of visits/ });
    // Empty: the default applies (the hint says so).
    expect((field as HTMLInputElement).value).toBe("");
    await settings.user.type(field, "90");
    expect(readPhotoKeepDays()).toBe(90);
    await settings.user.clear(field);
    expect(readPhotoKeepDays()).toBe(defaultKeepDays);
    settings.unmount();
  });
});
