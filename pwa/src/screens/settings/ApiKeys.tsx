/**
 * API keys for devices (hive scales, trackers) that post to the server as this user: create one
 * (its secret shows once, to copy), see them, revoke one. An owner sees (and may revoke) every
 * key of the organization, each saying whose it is. Keys live on the server only, so this
 * screen needs the network and says so when offline.
 */
import type { ApiKey } from "@hivekeep/proto";
import { type FormEvent, useState } from "react";
import { authClient } from "../../api.ts";
import { useAppSession } from "../../app/client.tsx";
import { useFormat } from "../../format.ts";
import { useMessages } from "../../i18n.ts";
import { TextField } from "../../ui/forms.tsx";
import { Card, ConfirmButton, Empty, ErrorText } from "../../ui/page.tsx";
import { useAuthCall } from "../account/useAuthError.ts";
import { settingsMessages } from "./messages.ts";
import {
  CopyField,
  ServerFormFooter,
  ServerListView,
  ServerScreen,
  useServerList,
} from "./parts.tsx";

export default function ApiKeys() {
  const t = useMessages(settingsMessages);
  const session = useAppSession();
  const keys = useServerList(
    async () => (await authClient.listApiKeys({})).keys,
    session.loginMode && !session.readOnly,
  );
  const online = keys.online;
  const [created, setCreated] = useState<{ name: string; secret: string } | undefined>();

  return (
    <ServerScreen
      title={t("apiKeys")}
      intro={t("apiKeysIntro")}
      unavailable={
        session.readOnly ? t("keysDemo") : !session.loginMode ? t("keysSingleUser") : undefined
      }
      online={online}
    >
      {created ? (
        <Card title={t("newKey", { name: created.name })} className="secret">
          <p className="notice notice--warn">{t("keyOnce")}</p>
          <CopyField label={t("secret")} value={created.secret} />
          <div className="form__actions">
            <button
              type="button"
              className="button button--secondary"
              onClick={() => setCreated(undefined)}
            >
              {t("done")}
            </button>
          </div>
        </Card>
      ) : (
        <CreateKey
          disabled={!online}
          onCreated={(name, secret, key) => {
            setCreated({ name, secret });
            keys.update((list) => [key, ...list]);
          }}
        />
      )}
      <Card title={session.owner ? t("keysAll") : t("keys")}>
        <ServerListView list={keys}>
          {(items) =>
            items.length === 0 ? (
              <Empty>{t("noKeys")}</Empty>
            ) : (
              <ul className="list">
                {items.map((k) => (
                  <KeyRow
                    key={k.id}
                    apiKey={k}
                    online={online}
                    onRevoked={() => keys.update((list) => list.filter((x) => x.id !== k.id))}
                  />
                ))}
              </ul>
            )
          }
        </ServerListView>
      </Card>
    </ServerScreen>
  );
}

function CreateKey(props: {
  disabled: boolean;
  onCreated: (name: string, secret: string, key: ApiKey) => void;
}) {
  const t = useMessages(settingsMessages);
  const [name, setName] = useState("");
  const call = useAuthCall(async (trimmed: string) => {
    const res = await authClient.createApiKey({ name: trimmed });
    if (res.key) props.onCreated(res.key.name, res.apiKey, res.key);
    setName("");
  });
  const { busy, error } = call;

  function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const trimmed = name.trim();
    if (trimmed === "") call.setError(t("needKeyName"));
    else void call.run(trimmed);
  }

  return (
    <Card>
      <form className="form" onSubmit={create} noValidate>
        <TextField
          label={t("keyName")}
          hint={t("keyNameHint")}
          value={name}
          onChange={setName}
          maxLength={200}
          required
        />
        <ServerFormFooter
          error={error}
          busy={busy}
          disabled={props.disabled}
          label={t("createKey")}
          busyLabel={t("creatingKey")}
        />
      </form>
    </Card>
  );
}

/** One key: name, prefix, dates, whose it is when not the caller's own, and Revoke. */
export function KeyRow(props: { apiKey: ApiKey; online: boolean; onRevoked: () => void }) {
  const t = useMessages(settingsMessages);
  const fmt = useFormat();
  const session = useAppSession();
  const k = props.apiKey;
  const whose = k.user?.email ?? "";
  const others = whose !== "" && whose.toLowerCase() !== session.email.toLowerCase();
  const revoke = useAuthCall(
    async () => {
      await authClient.revokeApiKey({ id: k.id });
      props.onRevoked();
    },
    { untilGone: true },
  );

  return (
    <li className="list__item list__row key">
      <div className="key__about">
        <span className="list__title">{k.name}</span>
        <span className="list__meta">
          {others && <span>{t("keyOf", { email: whose })}</span>}
          <span>{t("keyPrefix", { prefix: k.prefix })}</span>
          <span>{t("keyCreated", { date: fmt.date(k.createdAt) })}</span>
          <span>
            {k.lastUsedAt ? t("keyUsed", { date: fmt.dateTime(k.lastUsedAt) }) : t("keyNeverUsed")}
          </span>
        </span>
        <ErrorText text={revoke.error} />
      </div>
      <ConfirmButton
        label={t("revoke")}
        ariaLabel={t("revokeNamed", { name: k.name })}
        confirm={t("revokeConfirm", { name: k.name })}
        confirmLabel={t("revoke")}
        keepLabel={t("keep")}
        disabled={revoke.busy || !props.online}
        onConfirm={() => void revoke.run()}
      />
    </li>
  );
}
