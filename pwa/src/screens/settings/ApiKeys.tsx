/**
 * API keys for devices (hive scales, trackers) that post to the server as this user: create one
 * (its secret shows once, to copy), see them, revoke one. Keys live on the server only, so this
 * screen needs the network and says so when offline.
 */
import type { ApiKey } from "@hivekeep/proto";
import { type FormEvent, useEffect, useState } from "react";
import { authClient } from "../../api.ts";
import { useAppSession } from "../../app/client.tsx";
import { paths } from "../../app/routes.tsx";
import { useOnline } from "../../app/useOnline.ts";
import { useFormat } from "../../format.ts";
import { useMessages } from "../../i18n.ts";
import { TextField } from "../../ui/forms.tsx";
import { Card, Empty, Page } from "../../ui/page.tsx";
import { useAuthError } from "../account/useAuthError.ts";
import { settingsMessages } from "./messages.ts";
import { ConfirmAction, CopyField, NeedsNetwork } from "./parts.tsx";

export default function ApiKeys() {
  const t = useMessages(settingsMessages);
  const session = useAppSession();
  const online = useOnline();
  const describe = useAuthError();
  const [keys, setKeys] = useState<readonly ApiKey[] | undefined>();
  const [loadError, setLoadError] = useState<string | undefined>();
  const [created, setCreated] = useState<{ name: string; secret: string } | undefined>();

  async function load() {
    setLoadError(undefined);
    try {
      setKeys((await authClient.listApiKeys({})).keys);
    } catch (err) {
      setLoadError(describe(err));
    }
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: loads once, and again when online.
  useEffect(() => {
    if (online && session.loginMode && !session.readOnly) void load();
  }, [online, session.loginMode, session.readOnly]);

  if (!session.loginMode || session.readOnly) {
    return (
      <Page title={t("apiKeys")} back={paths.settings}>
        <Card>
          <p>{session.readOnly ? t("keysDemo") : t("keysSingleUser")}</p>
        </Card>
      </Page>
    );
  }

  return (
    <Page title={t("apiKeys")} back={paths.settings}>
      <p className="muted">{t("apiKeysIntro")}</p>
      {!online && <NeedsNetwork />}
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
            setKeys((prev) => [key, ...(prev ?? [])]);
          }}
        />
      )}
      <Card title={t("keys")}>
        {loadError ? (
          <>
            <p className="error" role="alert">
              {loadError}
            </p>
            <div className="form__actions">
              <button
                type="button"
                className="button button--secondary"
                disabled={!online}
                onClick={() => void load()}
              >
                {t("retry")}
              </button>
            </div>
          </>
        ) : keys === undefined ? (
          online && (
            <p className="muted" role="status">
              {t("loading")}
            </p>
          )
        ) : keys.length === 0 ? (
          <Empty>{t("noKeys")}</Empty>
        ) : (
          <ul className="list">
            {keys.map((k) => (
              <KeyRow
                key={k.id}
                apiKey={k}
                online={online}
                onRevoked={() => setKeys((prev) => prev?.filter((x) => x.id !== k.id))}
              />
            ))}
          </ul>
        )}
      </Card>
    </Page>
  );
}

function CreateKey(props: {
  disabled: boolean;
  onCreated: (name: string, secret: string, key: ApiKey) => void;
}) {
  const t = useMessages(settingsMessages);
  const describe = useAuthError();
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const trimmed = name.trim();
    if (trimmed === "") {
      setError(t("needKeyName"));
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      const res = await authClient.createApiKey({ name: trimmed });
      if (res.key) props.onCreated(res.key.name, res.apiKey, res.key);
      setName("");
    } catch (err) {
      setError(describe(err));
    } finally {
      setBusy(false);
    }
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
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <div className="form__actions">
          <button
            type="submit"
            className="button button--primary"
            disabled={busy || props.disabled}
          >
            {busy ? t("creatingKey") : t("createKey")}
          </button>
        </div>
      </form>
    </Card>
  );
}

function KeyRow(props: { apiKey: ApiKey; online: boolean; onRevoked: () => void }) {
  const t = useMessages(settingsMessages);
  const fmt = useFormat();
  const describe = useAuthError();
  const k = props.apiKey;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();

  async function revoke() {
    setBusy(true);
    setError(undefined);
    try {
      await authClient.revokeApiKey({ id: k.id });
      props.onRevoked();
    } catch (err) {
      setError(describe(err));
      setBusy(false);
    }
  }

  return (
    <li className="list__item list__row key">
      <div className="key__about">
        <span className="list__title">{k.name}</span>
        <span className="list__meta">
          <span>{t("keyPrefix", { prefix: k.prefix })}</span>
          <span>{t("keyCreated", { date: fmt.date(k.createdAt) })}</span>
          <span>
            {k.lastUsedAt ? t("keyUsed", { date: fmt.dateTime(k.lastUsedAt) }) : t("keyNeverUsed")}
          </span>
        </span>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
      </div>
      <ConfirmAction
        label={t("revoke")}
        ariaLabel={t("revokeNamed", { name: k.name })}
        confirm={t("revokeConfirm", { name: k.name })}
        busy={busy || !props.online}
        onConfirm={() => void revoke()}
      />
    </li>
  );
}
