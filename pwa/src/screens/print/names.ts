/**
 * Names for the user ids the register prints ("recorded by", "corrected by"): in single-user
 * mode there is one person, "the beekeeper (single user)"; hosted, the signed-in account is its
 * e-mail; other
 * members are their e-mail from the members list when the server can be reached (hosted mode),
 * else a short form of their id. The register works offline: the names are an addition.
 */
import { useEffect, useState } from "react";
import { authClient } from "../../api.ts";
import { useAppSession } from "../../app/client.tsx";
import { useMessages } from "../../i18n.ts";
import { printMessages } from "./messages.ts";

export function useUserNames(): (id: string) => string {
  const t = useMessages(printMessages);
  const session = useAppSession();
  const [members, setMembers] = useState<ReadonlyMap<string, string>>(new Map());
  useEffect(() => {
    if (!session.loginMode || session.readOnly) return;
    let live = true;
    authClient
      .listMembers({})
      .then((r) => {
        if (live)
          setMembers(new Map(r.members.map((m) => [m.user?.id ?? "", m.user?.email ?? ""])));
      })
      .catch(() => {
        // Offline or not allowed: ids stay short ids.
      });
    return () => {
      live = false;
    };
  }, [session.loginMode, session.readOnly]);
  return (id: string) => {
    if (id === "") return t("unknownUser");
    if (!session.loginMode) return t("you");
    if (id === session.client.userId) return session.email || t("you");
    return members.get(id) || id.slice(0, 8);
  };
}
