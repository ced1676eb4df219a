/** Every apiary (`/apiaries`): its name, address and how many hives stand there. */
import type { Apiary } from "@hivekeep/proto";
import type { ReactNode } from "react";
import { Link } from "wouter";
import { paths } from "../../app/paths.ts";
import { useMessages } from "../../i18n.ts";
import { Empty, LiveView, Loading, Page, Writable } from "../../ui/page.tsx";
import { apiaryMessages } from "./messages.ts";
import { useApiaryList } from "./queries.ts";

export default function ApiaryList() {
  const apiaries = useApiaryList();
  // The frame (title, New) shows while the list is read; a failure says so instead.
  return (
    <LiveView
      live={apiaries}
      back={paths.dashboard}
      loading={
        <Frame>
          <Loading />
        </Frame>
      }
    >
      {(list) => (
        <Frame>
          <Apiaries apiaries={list} />
        </Frame>
      )}
    </LiveView>
  );
}

function Frame(props: { readonly children: ReactNode }) {
  const t = useMessages(apiaryMessages);
  return (
    <Page
      title={t("title")}
      actions={
        <Writable>
          <Link href={paths.newApiary} className="button">
            {t("new")}
          </Link>
        </Writable>
      }
    >
      {props.children}
    </Page>
  );
}

function Apiaries(props: { readonly apiaries: readonly Apiary[] }) {
  const t = useMessages(apiaryMessages);
  if (props.apiaries.length === 0) return <Empty>{t("empty")}</Empty>;
  return (
    <ul className="list">
      {props.apiaries.map((a) => (
        <li key={a.id} className="list__item">
          <Link href={paths.apiary(a.id)} className="list__link list__stack">
            <span className="list__title">{a.name}</span>
            <span className="list__meta">
              {a.address && <span>{a.address}</span>}
              <span>{t("hives", { count: a.hiveCount })}</span>
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
