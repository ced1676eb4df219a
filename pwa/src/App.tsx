/**
 * Who is using the app decides what it shows: sign-in (hosted mode, signed out), or the app on
 * the replica of the signed-in account (single-user mode opens straight into it).
 */
import { lazy, Suspense, useEffect, useMemo } from "react";
import { Router } from "wouter";
import { AppRoutes } from "./app/AppRoutes.tsx";
import {
  type AppSession,
  AppSessionProvider,
  useClient,
  useReplica,
  useSyncStatus,
} from "./app/client.tsx";
import { Shell } from "./app/Shell.tsx";
import { shellMessages } from "./app/shell-messages.ts";
import { UpdatePrompt } from "./app/UpdatePrompt.tsx";
import { accountKey, useSession } from "./hooks/useSession.ts";
import { useMessages } from "./i18n.ts";
import {
  clearSessionToken,
  type Identity,
  sessionToken,
  subscribeAdoptedToken,
} from "./session.ts";
import { errorText, Loading } from "./ui/page.tsx";

const SignedOut = lazy(() => import("./screens/account/SignedOut.tsx"));

export function App() {
  const session = useSession();
  const { state } = session;
  return (
    <Router>
      <UpdatePrompt />
      {state.status === "checking" && <Loading />}
      {state.status === "signed-out" && (
        <Suspense fallback={<Loading />}>
          <SignedOut onSignedIn={session.signIn} />
        </Suspense>
      )}
      {state.status === "ready" && (
        <Replica
          // Another account (or organization) opens its own replica.
          key={accountKey(state.identity)}
          identity={state.identity}
          signOut={session.signOut}
        />
      )}
    </Router>
  );
}

const getToken = async () => sessionToken();

function Replica(props: { identity: Identity | undefined; signOut: () => Promise<void> }) {
  const t = useMessages(shellMessages);
  const readOnly = props.identity?.demo === true;
  const replica = useReplica({
    key: accountKey(props.identity),
    getToken,
    readOnly,
  });
  const { identity, signOut } = props;
  const value = useMemo<AppSession | undefined>(
    () =>
      replica.status === "open"
        ? {
            client: replica.client,
            readOnly,
            loginMode: identity?.loginMode === true,
            email: identity?.email ?? "",
            organization: identity?.organization ?? "",
            owner: identity?.owner === true,
            signOut,
          }
        : undefined,
    [replica, readOnly, identity, signOut],
  );
  if (replica.status === "opening") return <Loading />;
  if (replica.status === "failed") {
    const offline = !navigator.onLine;
    return (
      <main className="content">
        <p className="error" role="alert">
          {offline ? t("firstOpenOffline") : t("openFailed", { message: errorText(replica.error) })}
        </p>
        <button type="button" className="button" onClick={replica.retry}>
          {t("syncNow")}
        </button>
      </main>
    );
  }
  if (value === undefined) return <Loading />;
  return (
    <AppSessionProvider value={value}>
      <Shell>
        <SessionEnded />
        <AppRoutes />
      </Shell>
    </AppSessionProvider>
  );
}

/** Sync stopped for want of a valid session: every queued change stays until sign-in. */
function SessionEnded() {
  const t = useMessages(shellMessages);
  const status = useSyncStatus();
  const client = useClient();
  // A token checked for this account (signed in again in another tab): sync resumes now.
  useEffect(
    () =>
      subscribeAdoptedToken(() => {
        if (client.sync.status.paused) void client.sync.syncNow().catch(() => {});
      }),
    [client],
  );
  if (!status.paused) return null;
  return (
    <div className="notice notice--warn" role="alert">
      <p>{t("sessionEnded")}</p>
      <button type="button" className="button" onClick={() => clearSessionToken()}>
        {t("signIn")}
      </button>
    </div>
  );
}
