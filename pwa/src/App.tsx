import { useEffect, useRef } from "react";
import { AccountBar } from "./components/AccountBar.tsx";
import { AddApiaryForm } from "./components/AddApiaryForm.tsx";
import { ApiaryList } from "./components/ApiaryList.tsx";
import { AppHeader } from "./components/AppHeader.tsx";
import { ConnectionStatus } from "./components/ConnectionStatus.tsx";
import { SignInScreen } from "./components/SignInScreen.tsx";
import { UpdatePrompt } from "./components/UpdatePrompt.tsx";
import { useApiaries } from "./hooks/useApiaries.ts";
import { useAvailableOffline } from "./hooks/useAvailableOffline.ts";
import { useOnlineStatus } from "./hooks/useOnlineStatus.ts";
import { useSession } from "./hooks/useSession.ts";

export function App() {
  const online = useOnlineStatus();
  const availableOffline = useAvailableOffline();
  const session = useSession();
  const { state } = session;
  const identity = state.status === "ready" ? state.identity : undefined;

  // UpdatePrompt keeps its place in every state, so the service worker registers once.
  return (
    <>
      <AppHeader />
      <main className="content">
        {identity?.loginMode && <AccountBar identity={identity} onSignOut={session.signOut} />}
        {state.status === "ready" && (
          <ConnectionStatus online={online} availableOffline={availableOffline} />
        )}
        <UpdatePrompt />
        {state.status === "checking" && (
          <p className="muted" role="status">
            Loading…
          </p>
        )}
        {state.status === "signed-out" && <SignInScreen onSignedIn={session.signIn} />}
        {state.status === "ready" && (
          // A different account gets a fresh list and feed.
          <Apiaries
            key={`${identity?.email}\n${identity?.organization}`}
            online={online}
            readOnly={identity?.demo === true}
          />
        )}
      </main>
    </>
  );
}

interface ApiariesProps {
  readonly online: boolean;
  /** A demo session: the list without the form. */
  readonly readOnly: boolean;
}

/** The app proper: in single-user mode, or signed in to an organization. */
function Apiaries({ online, readOnly }: ApiariesProps) {
  const apiaries = useApiaries();
  const { reload } = apiaries;

  // Back online: fetch what may have changed meanwhile.
  const wasOnline = useRef(online);
  useEffect(() => {
    if (online && !wasOnline.current) void reload();
    wasOnline.current = online;
  }, [online, reload]);

  return (
    <>
      <ApiaryList
        apiaries={apiaries.apiaries}
        total={apiaries.total}
        loading={apiaries.loading}
        error={apiaries.error}
        onRetry={reload}
        canAdd={!readOnly}
      />
      {!readOnly && <AddApiaryForm onAdd={apiaries.add} />}
    </>
  );
}
