/**
 * The changes the server refused (quarantined by the sync engine), each with its reason and a
 * way out: open the record to fix it and try again, or discard the change, which puts the record
 * back to the server's state. Nothing else is held back meanwhile. Above them, the notices of
 * work sync overrode on this device (Notices.tsx, issue 25).
 */
import "./attention.css";
import type { QuarantinedItem } from "@hivekeep/client-core";
import { Link } from "wouter";
import { useClient, useSyncStatus } from "../../app/client.tsx";
import { useNotices } from "../../app/notices.ts";
import { useMessages } from "../../i18n.ts";
import { commonMessages } from "../../ui/messages.ts";
import { ConfirmButton, Empty, ErrorNote, Page, useAction } from "../../ui/page.tsx";
import { syncMessages } from "./messages.ts";
import { NoticeList } from "./Notices.tsx";
import { recordName, recordPath } from "./present.ts";

export default function Attention() {
  const t = useMessages(syncMessages);
  const status = useSyncStatus();
  const notices = useNotices();
  const items = status.quarantined;
  return (
    <Page title={t("title")}>
      {notices.length > 0 && <NoticeList notices={notices} />}
      {items.length === 0 ? (
        <Empty>{notices.length === 0 ? t("none") : t("noneRefused")}</Empty>
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
  const tc = useMessages(commonMessages);
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
            what: name ? `${what} ${tc("quoted", { text: name })}` : what,
            op: item.change.op === "delete" ? t("opDelete") : t("opUpsert"),
          })}
        </span>
        <span className="badge badge--bad">{item.code}</span>
      </div>
      <p>
        <strong>
          {t("reason")}
          {tc("labelSeparator").trimEnd()}
        </strong>{" "}
        {item.reason}
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
          confirmLabel={t("discard")}
          keepLabel={tc("keep")}
          disabled={discard.busy}
          onConfirm={() => void discard.run()}
        />
      </div>
      <ErrorNote error={retry.error ?? discard.error} />
    </li>
  );
}
