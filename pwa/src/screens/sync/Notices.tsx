/**
 * The notices of work sync overrode or set aside on this device (client.notices, issue 25):
 * which record, what the user wrote, what was kept and when, each until dismissed. A sibling
 * list of the refused changes on "Needs attention".
 */
import type { SyncNotice } from "@hivekeep/client-core";
import { Link } from "wouter";
import { useClient } from "../../app/client.tsx";
import { useFormat } from "../../format.ts";
import { useMessages } from "../../i18n.ts";
import { commonMessages } from "../../ui/messages.ts";
import { ErrorNote, useAction } from "../../ui/page.tsx";
import { noticeFields, syncMessages } from "./messages.ts";
import { noticePath, noticeValue } from "./present.ts";

/** The columns the messages name (field.<column>); any other shows as it is stored. */
const fieldKeys: ReadonlySet<string> = new Set(noticeFields);

const blank = (v: unknown): boolean =>
  v === null || v === undefined || v === "" || v === 0 || v === false;

export function NoticeList({ notices }: { notices: readonly SyncNotice[] }) {
  const t = useMessages(syncMessages);
  return (
    <section aria-labelledby="notices-title" className="attention__notices">
      <h2 id="notices-title">{t("noticesTitle")}</h2>
      <p>{t("noticesIntro")}</p>
      <ul className="list attention">
        {notices.map((n) => (
          <Notice key={n.key} notice={n} />
        ))}
      </ul>
    </section>
  );
}

function Notice({ notice }: { notice: SyncNotice }) {
  const t = useMessages(syncMessages);
  const tc = useMessages(commonMessages);
  const sep = tc("labelSeparator");
  const quote = (text: string) => tc("quoted", { text });
  const fmt = useFormat();
  const client = useClient();
  const dismiss = useAction(() => client.notices.dismiss(notice.key));
  const { record, cause } = notice;
  const named = (r: typeof record) => {
    const what = t(`entity.${r.entity}` as never);
    const name = r.label || (r.date ? fmt.date(new Date(r.date)) : "");
    return name ? `${what} ${quote(name)}` : what;
  };
  const when = fmt.dateTime(new Date(notice.wonAt));
  const href = noticePath(notice);
  const field = (c: string) => (fieldKeys.has(c) ? t(`field.${c}` as never) : c);
  // The user's own words and numbers; ids and bookkeeping times say nothing to them.
  // Of a set-aside record, the fields named in words that hold something (not an id, not a
  // default 0 / false / empty); of an overwritten one, every column that lost.
  const columns = Object.keys(notice.mine).filter((c) =>
    notice.kind === "overwritten"
      ? c !== "updated_at"
      : fieldKeys.has(c) && !/_(id|at)$/.test(c) && !blank(notice.mine[c]),
  );
  return (
    <li className="list__item attention__item" data-notice={notice.key}>
      <div className="attention__head">
        <span className="list__title">
          {named(record)}
          {record.label && record.date ? ` · ${fmt.date(new Date(record.date))}` : ""}
        </span>
      </div>
      <p>{t(notice.kind, { when, cause: cause ? named(cause) : "" })}</p>
      {notice.kind !== "overwritten" && columns.length > 0 && (
        <p className="muted">
          {t("yours")}
          {sep}
          {columns.map((c) => `${field(c)} ${noticeValue(notice.mine[c], fmt, quote)}`).join(" · ")}
        </p>
      )}
      {notice.kind === "overwritten" && columns.length > 0 && (
        <dl className="attention__values">
          {columns.map((c) => (
            <div key={c}>
              <dt>{field(c)}</dt>
              <dd>
                {t("yours")}
                {sep}
                {noticeValue(notice.mine[c], fmt, quote)} · {t("won")}
                {sep}
                {Object.hasOwn(notice.won, c)
                  ? noticeValue(notice.won[c], fmt, quote)
                  : t("wonPending")}
              </dd>
            </div>
          ))}
        </dl>
      )}
      <div className="form__actions">
        {href && (
          <Link href={href} className="button button--secondary">
            {t("open")}
          </Link>
        )}
        <button
          type="button"
          className="button"
          disabled={dismiss.busy}
          onClick={() => void dismiss.run()}
        >
          {t("dismiss")}
        </button>
      </div>
      <ErrorNote error={dismiss.error} />
    </li>
  );
}
