/**
 * axe-core in the page: the accessibility rules (WCAG 2.x A and AA, plus axe's best practices)
 * run against what the page shows now.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

const axePath = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
let source: string | undefined;
const axeSource = () => {
  source ??= readFileSync(axePath, "utf8");
  return source;
};

export interface Violation {
  readonly rule: string;
  readonly impact: string;
  readonly help: string;
  /** Each offending element: its selector, markup (shortened) and what is wrong. */
  readonly nodes: readonly { target: string; html: string; summary: string }[];
}

/** Every violation axe finds on the page as it is. */
export async function axeViolations(page: Page): Promise<Violation[]> {
  // Evaluated through the DevTools protocol, which the page's Content-Security-Policy does not
  // govern (a <script> tag of it would be an inline script the policy refuses).
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(`${axeSource()};true`);
  return page.evaluate(async () => {
    // biome-ignore lint/suspicious/noExplicitAny: axe is injected as a global script.
    const axe = (window as any).axe;
    const results = await axe.run(document, { resultTypes: ["violations"] });
    return results.violations.map(
      (v: {
        id: string;
        impact: string;
        help: string;
        nodes: { target: unknown[]; html: string; failureSummary?: string }[];
      }) => ({
        rule: v.id,
        impact: v.impact ?? "unknown",
        help: v.help,
        nodes: v.nodes.map((n) => ({
          target: n.target.map(String).join(" "),
          html: n.html.length > 200 ? `${n.html.slice(0, 200)}…` : n.html,
          summary: (n.failureSummary ?? "").replace(/\s+/g, " ").trim(),
        })),
      }),
    );
  });
}

/** Serious and critical violations only: the ones the suite fails on. */
export const isSerious = (v: Violation): boolean =>
  v.impact === "serious" || v.impact === "critical";

/** A readable list of violations for a failure message. */
export function describeViolations(found: readonly { screen: string; v: Violation }[]): string {
  return found
    .map(
      ({ screen, v }) =>
        `${screen}: ${v.rule} (${v.impact}) ${v.help}\n${v.nodes
          .map((n) => `    ${n.target}  ${n.html}\n      ${n.summary}`)
          .join("\n")}`,
    )
    .join("\n");
}
