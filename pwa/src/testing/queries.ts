/**
 * Finding things on a screen the way a reader of it does, where Testing Library's queries alone
 * would need markup:
 *
 *   within(await findSection("Stock card")).getByText("Queen 2025 · Blue")
 *   expect(terms(screen.getByRole("region", { name: "Figures" }))).toEqual({ Hives: "3", … })
 */
import { screen, within } from "@testing-library/react";

/**
 * The part of the page under a heading (a card, a list with its title): the nearest section
 * around the heading named `name`, so the same words elsewhere on the page are not matched.
 */
export async function findSection(name: string | RegExp): Promise<HTMLElement> {
  const heading = await screen.findByRole("heading", { name });
  const section = heading.closest("section");
  if (section === null) throw new Error(`the heading "${String(name)}" is in no section`);
  return section;
}

/** The terms of a description list (`dt`/`dd`, e.g. figures or facts) as {term: description}. */
export function terms(container: HTMLElement): Record<string, string> {
  const names = within(container).queryAllByRole("term");
  const values = within(container).queryAllByRole("definition");
  return Object.fromEntries(
    names.map((n, i) => [n.textContent?.trim() ?? "", values[i]?.textContent?.trim() ?? ""]),
  );
}
