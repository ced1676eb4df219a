/**
 * The changes the server refused (quarantined by the sync engine), each with its reason and a
 * way out: open the record to fix it and try again, or discard the change, which puts the record
 * back to the server's state. Nothing else is held back meanwhile.
 */
import "./attention.css";
import type { QuarantinedItem } from "@hivekeep/client-core";
import { Link } from "wouter";
import { useClient, useSyncStatus } from "../../app/client.tsx";
import { paths } from "../../app/routes.tsx";
import { useMessages } from "../../i18n.ts";
import { ConfirmButton, Empty, ErrorNote, Page, useAction } from "../../ui/page.tsx";
import { syncMessages } from "./messages.ts";

/** Where a refused change's record can be seen and fixed, if it has a page. */
export function recordPath(item: Pick<QuarantinedItem, "change">): string | undefined {
  const { entity, entityId, payload } = item.change;
  const hiveId = typeof payload.hive_id === "string" ? payload.hive_id : undefined;
  switch (entity) {
    case "apiary":
      return paths.apiary(entityId);
    case "hive":
      return paths.hive(entityId);
    case "inspection":
      return paths.inspection(entityId);
    case "task":
      return paths.tasks;
    case "placement":
    case "queen":
    case "treatment":
    case "harvest":
    case "event":
      return hiveId ? paths.hive(hiveId) : undefined;
  }
}

/** A short name for the record from what the change carries (name, title), if any. */
function recordName(item: QuarantinedItem): string | undefined {
  const p = item.change.payload;
  for (const key of ["name", "title", "variety", "product"]) {
    const v = p[key];
    if (typeof v === "string" && v.trim() !== "") return v;
  }
  return undefined;
}

export default function Attention() {
  const t = useMessages(syncMessages);
  const status = useSyncStatus();
  const items = status.quarantined;
  return (
    <Page title={t("title")}>
      {items.length === 0 ? (
        <Empty>{t("none")}</Empty>
      ) : (
        <>
          <p>{t("intro")}</p>
          <ul className="list attention">
            {items.map((item) => (
              <Item key={item.id} item={item} />
            ))}
          </ul>
        </>
      )}
    </Page>
  );
}

function Item({ item }: { item: QuarantinedItem }) {
  const t = useMessages(syncMessages);
  const client = useClient();
  const retry = useAction(() => client.sync.retry(item.id));
  const discard = useAction(() => client.sync.discard(item.id));
  const what = t(`entity.${item.change.entity}` as never);
  const name = recordName(item);
  const fields = Object.keys(item.change.payload);
  const href = recordPath(item);
  return (
    <li className="list__item attention__item">
      <div className="attention__head">
        <span className="list__title">
          {t("change", {
            what: name ? `${what} “${name}”` : what,
            op: item.change.op === "delete" ? t("opDelete") : t("opUpsert"),
          })}
        </span>
        <span className="badge badge--bad">{item.code}</span>
      </div>
      <p>
        <strong>{t("reason")}:</strong> {item.reason}
      </p>
      {fields.length > 0 && <p className="muted">{t("fields", { fields: fields.join(", ") })}</p>}
      <div className="form__actions">
        {href && (
          <Link href={href} className="button button--secondary">
            {t("open")}
          </Link>
        )}
        <button
          type="button"
          className="button"
          disabled={retry.busy}
          onClick={() => void retry.run()}
        >
          {t("retry")}
        </button>
        <ConfirmButton
          label={t("discard")}
          confirm={t("discardConfirm")}
          disabled={discard.busy}
          onConfirm={() => void discard.run()}
        />
      </div>
      <ErrorNote error={retry.error ?? discard.error} />
    </li>
  );
}
