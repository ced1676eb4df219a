import { useEffect, useRef } from "react";
import { AddApiaryForm } from "./components/AddApiaryForm.tsx";
import { ApiaryList } from "./components/ApiaryList.tsx";
import { AppHeader } from "./components/AppHeader.tsx";
import { ConnectionStatus } from "./components/ConnectionStatus.tsx";
import { UpdatePrompt } from "./components/UpdatePrompt.tsx";
import { useApiaries } from "./hooks/useApiaries.ts";
import { useAvailableOffline } from "./hooks/useAvailableOffline.ts";
import { useOnlineStatus } from "./hooks/useOnlineStatus.ts";

export function App() {
  const online = useOnlineStatus();
  const availableOffline = useAvailableOffline();
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
      <AppHeader />
      <main className="content">
        <ConnectionStatus online={online} availableOffline={availableOffline} />
        <UpdatePrompt />
        <ApiaryList
          apiaries={apiaries.apiaries}
          total={apiaries.total}
          loading={apiaries.loading}
          error={apiaries.error}
          onRetry={reload}
        />
        <AddApiaryForm onAdd={apiaries.add} />
      </main>
    </>
  );
}
