/**
 * The frame around every screen: the header with the sync state, the main navigation (a bar at
 * the bottom on a phone, a column at the side on a desktop) and the screen.
 */
import type { ReactNode } from "react";
import { Link, useLocation } from "wouter";
import { useMessages } from "../i18n.ts";
import { useAppSession } from "./client.tsx";
import { ErrorBoundary } from "./ErrorBoundary.tsx";
import { paths } from "./paths.ts";
import { SyncBar } from "./SyncBar.tsx";
import { shellMessages } from "./shell-messages.ts";

const nav = [
  { href: paths.dashboard, key: "navDashboard", icon: "◫" },
  { href: paths.apiaries, key: "navApiaries", icon: "⌂" },
  { href: paths.hives, key: "navHives", icon: "⬢" },
  { href: paths.tasks, key: "navTasks", icon: "✓" },
  { href: paths.settings, key: "navSettings", icon: "⚙" },
] as const;

function isCurrent(location: string, href: string): boolean {
  return href === "/" ? location === "/" : location === href || location.startsWith(`${href}/`);
}

export function Shell(props: { readonly children: ReactNode }) {
  const t = useMessages(shellMessages);
  const session = useAppSession();
  const [location] = useLocation();
  return (
    <div className="shell">
      <a className="skip" href="#main">
        {t("skip")}
      </a>
      <header className="app-header">
        <Link href="/" className="app-header__home">
          <img className="app-header__logo" src="/icon.svg" alt="" width="32" height="32" />
          <span className="app-header__title">Hivekeep</span>
        </Link>
        {session.readOnly && <span className="badge badge--demo">{t("demo")}</span>}
        <SyncBar />
      </header>
      <nav className="nav" aria-label={t("mainNav")}>
        {nav.map((item) => (
          <Link
            key={item.href}
            href={item.href}
            className="nav__item"
            aria-current={isCurrent(location, item.href) ? "page" : undefined}
          >
            <span className="nav__icon" aria-hidden="true">
              {item.icon}
            </span>
            <span className="nav__label">{t(item.key)}</span>
          </Link>
        ))}
      </nav>
      <main id="main" className="content" tabIndex={-1}>
        <ErrorBoundary resetKey={location}>{props.children}</ErrorBoundary>
      </main>
    </div>
  );
}
