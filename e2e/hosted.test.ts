/**
 * Hosted mode (HIVEKEEP_AUTH=login, demo on): sign up, log out, log in (a wrong password says
 * so), create an API key (its secret shown once, and it works) and revoke it (and it stops
 * working), invite a member who joins from the link (`/join#<token>`) on another device, see
 * the open invitations and revoke one, see every key of the organization with whose it is, and
 * a demo session that cannot write and says so.
 */
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { useBrowserApp } from "./support/app.ts";
import { browserSuite } from "./support/chromium.ts";
import { heading, listItem, navigate, rpc } from "./support/field.ts";

const owner = { email: "ada@example.org", password: "correct horse battery" };
const organization = "Lovelace Apiaries";

const tab = (page: Page, name: "Log in" | "Create an account") => page.getByRole("tab", { name });

/** The settings' account card, as text. */
async function accountText(page: Page): Promise<string> {
  await navigate(page, "Settings");
  await heading(page, "Settings").waitFor();
  const card = page.getByRole("definition").first();
  await card.waitFor();
  return (await page.getByRole("main").textContent()) ?? "";
}

browserSuite("PWA: hosted mode (accounts, API keys, members, demo)", () => {
  const app = useBrowserApp({ HIVEKEEP_AUTH: "login", HIVEKEEP_DEMO: "true" });

  it("signs up, logs out, logs in again", async () => {
    const { page, pageErrors } = await app.openPage();
    await page.goto(app.server.url);
    await tab(page, "Log in").waitFor();
    expect(await tab(page, "Log in").getAttribute("aria-selected")).toBe("true");
    expect(await page.getByRole("navigation", { name: "Main" }).count()).toBe(0);

    await tab(page, "Create an account").click();
    await page.getByLabel("Email").fill(owner.email);
    await page.getByLabel("Password").fill(owner.password);
    await page.getByLabel("Organization name").fill(organization);
    await page.getByRole("button", { name: "Create account" }).click();
    await heading(page, "Overview").waitFor();
    const account = await accountText(page);
    expect(account).toContain(owner.email);
    expect(account).toContain(organization);
    expect(account).toContain("Owner");

    // Written here, it reaches the server under this account.
    await navigate(page, "Apiaries");
    await page.getByRole("link", { name: "New apiary" }).click();
    await page.getByLabel("Name", { exact: true }).fill("Orchard hill");
    await page.getByRole("button", { name: "Save" }).click();
    await heading(page, "Orchard hill").waitFor();
    const token = await page.evaluate(() => localStorage.getItem("hivekeep.sessionToken"));
    expect(token).toMatch(/^hks_[A-Za-z0-9_-]{43}$/);
    await expect
      .poll(
        async () => (await app.server.as(token ?? "").call("ApiaryService/ListApiaries", {})).body,
      )
      .toMatchObject({ apiaries: [{ name: "Orchard hill" }] });

    await navigate(page, "Settings");
    await page.getByRole("button", { name: "Log out" }).click();
    await tab(page, "Log in").waitFor();
    expect(await page.evaluate(() => localStorage.getItem("hivekeep.sessionToken"))).toBeNull();
    expect((await app.server.as(token ?? "").call("ApiaryService/ListApiaries", {})).status).toBe(
      401,
    );

    // A wrong password says so, and stays here.
    await page.getByLabel("Email").fill(owner.email);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Log in" }).click();
    await page.getByRole("alert").filter({ hasText: "Email or password is wrong." }).waitFor();

    await page.getByLabel("Password").fill(owner.password);
    await page.getByRole("button", { name: "Log in" }).click();
    // Back where the app was left.
    await heading(page, "Settings").waitFor();
    await navigate(page, "Apiaries");
    await listItem(page, "Orchard hill").waitFor();
    expect(pageErrors).toEqual([]);
  });

  it("creates an API key, shown once, that works until it is revoked", async () => {
    const { page, pageErrors } = await app.openPage();
    await page.goto(app.server.url);
    await page.getByLabel("Email").fill(owner.email);
    await page.getByLabel("Password").fill(owner.password);
    await page.getByRole("button", { name: "Log in" }).click();
    await heading(page, "Overview").waitFor();

    await navigate(page, "Settings");
    await page.getByRole("link", { name: /API keys/ }).click();
    await heading(page, "API keys").waitFor();
    await page.getByText("No API keys yet.").waitFor();
    await page.getByLabel("Key name").fill("Scale 1");
    await page.getByRole("button", { name: "Create key" }).click();
    await page.getByText("Copy it now: it will not be shown again.").waitFor();
    const secret = await page.getByLabel("API key", { exact: true }).inputValue();
    expect(secret.length).toBeGreaterThan(20);
    // The key works as a bearer token.
    await rpc(app.server.as(secret), "ApiaryService/ListApiaries");

    await page.getByRole("button", { name: "Done" }).click();
    await expect.poll(() => page.getByLabel("API key", { exact: true }).count()).toBe(0);
    expect(await page.getByText(secret).count()).toBe(0);
    const row = listItem(page, "Scale 1");
    await row.waitFor();
    expect(await row.textContent()).toContain(secret.slice(0, 6));

    await row.getByRole("button", { name: "Revoke Scale 1" }).click();
    await row.getByRole("button", { name: "Revoke", exact: true }).click();
    await page.getByText("No API keys yet.").waitFor();
    expect((await app.server.as(secret).call("ApiaryService/ListApiaries", {})).status).toBe(401);
    expect(pageErrors).toEqual([]);
  });

  it("invites a member, who joins from the link on another device", async () => {
    const { page, pageErrors } = await app.openPage({ size: "desktop" });
    await page.goto(app.server.url);
    await page.getByLabel("Email").fill(owner.email);
    await page.getByLabel("Password").fill(owner.password);
    await page.getByRole("button", { name: "Log in" }).click();
    await heading(page, "Overview").waitFor();

    await navigate(page, "Settings");
    await page.getByRole("link", { name: /Members/ }).click();
    await heading(page, "Members").waitFor();
    await page.getByLabel("Email").fill("bea@example.org");
    await page.getByRole("button", { name: "Create invitation" }).click();
    const link = await page.getByLabel("Invitation link").inputValue();
    expect(link).toMatch(new RegExp(`^${app.server.url}/join#.+`));

    // Bea opens the link on her phone and creates her account there.
    const bea = await app.openPage();
    await bea.page.goto(link);
    await bea.page.getByRole("heading", { name: "You have been invited" }).waitFor();
    await tab(bea.page, "Create an account").click();
    await bea.page.getByLabel("Email").fill("bea@example.org");
    await bea.page.getByLabel("Password").fill("bees in the garden");
    await bea.page.getByRole("button", { name: "Create account and join" }).click();
    await heading(bea.page, "Overview").waitFor();
    // She is in Ada's organization and sees its apiaries.
    const account = await accountText(bea.page);
    expect(account).toContain("bea@example.org");
    expect(account).toContain(organization);
    expect(account).toContain("Member");
    await navigate(bea.page, "Apiaries");
    await listItem(bea.page, "Orchard hill").waitFor();

    // Ada's member list shows her.
    await page.reload();
    await heading(page, "Members").waitFor();
    await listItem(page, "bea@example.org").waitFor();
    expect(pageErrors).toEqual([]);
    expect(bea.pageErrors).toEqual([]);
  });

  it("lists open invitations to revoke, and every key of the organization with whose it is", async () => {
    // Bea, who joined in the test before, has a key for her scale.
    const bea = await rpc(app.server, "AuthService/Login", {
      email: "bea@example.org",
      password: "bees in the garden",
    });
    await rpc(app.server.as(bea.sessionToken), "AuthService/CreateApiKey", { name: "Bea's scale" });

    const { page, pageErrors } = await app.openPage();
    await page.goto(app.server.url);
    await page.getByLabel("Email").fill(owner.email);
    await page.getByLabel("Password").fill(owner.password);
    await page.getByRole("button", { name: "Log in" }).click();
    await heading(page, "Overview").waitFor();
    await navigate(page, "Settings");
    await page.getByRole("link", { name: /Members/ }).click();
    await heading(page, "Members").waitFor();
    await page.getByText("No open invitations.").waitFor();
    await listItem(page, "Bea's scale").filter({ hasText: "Belongs to bea@example.org" }).waitFor();

    await page.getByLabel("Email").fill("dave@example.org");
    await page.getByRole("button", { name: "Create invitation" }).click();
    const link = await page.getByLabel("Invitation link").inputValue();
    const token = decodeURIComponent(link.split("#")[1] ?? "");
    const row = listItem(page, "dave@example.org");
    await row.filter({ hasText: `Invited by ${owner.email}` }).waitFor();

    await row.getByRole("button", { name: "Revoke invitation for dave@example.org" }).click();
    await row
      .getByText("Revoke the invitation for dave@example.org? Its link stops working at once.")
      .waitFor();
    await row.getByRole("button", { name: "Keep" }).click();
    await row.getByRole("button", { name: "Revoke invitation for dave@example.org" }).click();
    await row.getByRole("button", { name: "Revoke", exact: true }).click();
    await page.getByText("No open invitations.").waitFor();
    const signUp = await app.server.call("AuthService/SignUp", {
      email: "dave@example.org",
      password: "dave's password",
      invitationToken: token,
    });
    expect(signUp.body.code).toBe("failed_precondition");
    expect(pageErrors).toEqual([]);
  });

  it("a demo session cannot write, and says so", async () => {
    const { page, pageErrors } = await app.openPage();
    await page.goto(app.server.url);
    await page.getByRole("button", { name: "Try the demo" }).click();
    // The first demo seeds a season of sample data (several seconds).
    await page.getByText("Demo (read-only)").waitFor({ timeout: 45_000 });
    await heading(page, "Overview").waitFor();

    // No write controls: no "New apiary", no "Inspect" on a hive.
    await navigate(page, "Apiaries");
    await page.getByRole("listitem").first().waitFor();
    expect(await page.getByRole("link", { name: "New apiary" }).count()).toBe(0);
    await navigate(page, "Hives");
    await page.getByRole("listitem").first().getByRole("link").first().click();
    await page.getByRole("heading", { level: 2 }).first().waitFor();
    expect(await page.getByRole("link", { name: "Inspect" }).count()).toBe(0);
    const hivePath = new URL(page.url()).pathname;

    // A form reached by its address says why it cannot be used.
    for (const form of [
      "/inspect",
      "/apiaries/new",
      "/hives/new",
      "/tasks/new",
      "/queen",
      "/treatment",
      "/harvest",
      "/edit",
    ]) {
      const path = form.endsWith("/new") ? form : `${hivePath}${form}`;
      await page.goto(`${app.server.url}${path}`);
      await page.getByText("Demo: read-only. Sign up to keep your own records.").waitFor();
      expect(await page.getByRole("button", { name: /^Save/ }).count(), form).toBe(0);
    }
    // And the server refuses the session's writes.
    const token = await page.evaluate(() => localStorage.getItem("hivekeep.sessionToken"));
    const write = await app.server
      .as(token ?? "")
      .call("ApiaryService/CreateApiary", { name: "Not allowed" });
    expect(write.status).toBe(403);
    expect(await accountText(page)).toContain("Demo visitor (read-only)");
    await page.getByRole("button", { name: "Leave the demo" }).click();
    await page.getByRole("button", { name: "Try the demo" }).waitFor();
    expect(pageErrors).toEqual([]);
  });
});
