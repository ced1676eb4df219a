/**
 * Choosing a language in Settings: the language tapped shows as chosen at once, while its words
 * load; the app switches when they are here (German, French, Italian, Spanish and Polish load only
 * when chosen).
 */
import { afterEach, describe, expect, it } from "vitest";
import { currentLanguage, setLanguage } from "../../i18n.ts";
import { openTestClient, renderAt } from "../../testing/render-screen.tsx";

afterEach(async () => {
  await setLanguage("en");
});

describe("the language choice", () => {
  it("shows the language tapped as chosen at once, and the app switches once it has loaded", async () => {
    const client = await openTestClient();
    const settings = await renderAt("/settings", { client });
    const french = await settings.findByRole("radio", { name: "Français" });
    await settings.user.click(french);
    // Chosen at once, whether or not French has loaded yet.
    expect((french as HTMLInputElement).checked).toBe(true);
    await settings.findByRole("heading", { name: "Réglages" });
    expect(currentLanguage()).toBe("fr");
    expect(
      (await settings.findByRole("radio", { name: "Français" })) as HTMLInputElement,
    ).toHaveProperty("checked", true);
    settings.unmount();
  });
});
