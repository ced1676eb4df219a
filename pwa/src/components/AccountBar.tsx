import { useState } from "react";
import type { Identity } from "../session.ts";

export interface AccountBarProps {
  readonly identity: Identity;
  readonly onSignOut: () => Promise<void>;
}

/** Hosted mode: which organization and who, and the way out. */
export function AccountBar({ identity, onSignOut }: AccountBarProps) {
  const [busy, setBusy] = useState(false);

  async function signOut() {
    setBusy(true);
    try {
      await onSignOut();
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="account" aria-label="Account">
      <div className="account__who">
        <p className="account__org">
          <span className="account__org-name">{identity.organization || "Your organization"}</span>
          {identity.demo && <span className="badge">Demo — read only</span>}
        </p>
        <p className="account__user">
          {identity.demo
            ? "Sample data to look around. Sign out to make your own account."
            : identity.email && (
                <>
                  Signed in as <span className="account__email">{identity.email}</span>
                </>
              )}
        </p>
      </div>
      <button
        type="button"
        className="button button--secondary button--small"
        disabled={busy}
        onClick={() => void signOut()}
      >
        {busy ? "Signing out…" : "Sign out"}
      </button>
    </section>
  );
}
