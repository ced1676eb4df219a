/**
 * The device's notices of overridden work (client.notices, issue 25), re-rendered whenever they
 * change: read by the sync bar (their count) and the needs-attention screen (the list).
 */
import type { SyncNotice } from "@hivekeep/client-core";
import { useEffect, useState } from "react";
import { useClient } from "./client.tsx";

export function useNotices(): readonly SyncNotice[] {
  const client = useClient();
  const [notices, setNotices] = useState<readonly SyncNotice[]>([]);
  useEffect(() => {
    const sub = client.notices.live().subscribe({
      next: (list) => setNotices(list),
      // A replica that cannot be read shows no notices; the screens say what failed.
      error: () => setNotices([]),
    });
    return () => sub.unsubscribe();
  }, [client]);
  return notices;
}
