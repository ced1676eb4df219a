import { Link } from "wouter";
import { useApiaries } from "../../app/list-all.ts";
import { paths } from "../../app/paths.ts";
import { useMessages } from "../../i18n.ts";
import { Empty, Loading, Page, Writable } from "../../ui/page.tsx";
import { apiaryMessages } from "./messages.ts";

export default function ApiaryList() {
  const t = useMessages(apiaryMessages);
  const apiaries = useApiaries();
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
      {apiaries === undefined ? (
        <Loading />
      ) : apiaries.length === 0 ? (
        <Empty>{t("empty")}</Empty>
      ) : (
        <ul className="list">
          {apiaries.map((a) => (
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
      )}
    </Page>
  );
}
