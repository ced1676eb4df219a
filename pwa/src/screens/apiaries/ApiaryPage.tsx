/** One apiary: where it is, the hives standing there, edit and delete. */
import { Link, useLocation, useParams } from "wouter";
import { useClient, useLive, useLiveResult, useReadOnly } from "../../app/client.tsx";
import { listAll } from "../../app/list-all.ts";
import { paths } from "../../app/paths.ts";
import { useFormat } from "../../format.ts";
import { useMessages } from "../../i18n.ts";
import { commonMessages, label } from "../../ui/messages.ts";
import {
  Card,
  ConfirmButton,
  Empty,
  ErrorNote,
  Loading,
  NotFound,
  Page,
  useAction,
  Writable,
} from "../../ui/page.tsx";
import { apiaryMessages } from "./messages.ts";

export default function ApiaryPage() {
  const { id } = useParams<{ id: string }>();
  const t = useMessages(apiaryMessages);
  const tc = useMessages(commonMessages);
  const fmt = useFormat();
  const client = useClient();
  const readOnly = useReadOnly();
  const [, navigate] = useLocation();
  const result = useLiveResult(async (c) => (await c.apiaries.getApiary({ id })).apiary, [id]);
  const hives = useLive(
    (c) =>
      listAll(
        (page) => c.hives.listHives({ apiaryId: id, page }),
        (r) => r.hives,
      ),
    [id],
  );
  const remove = useAction(async () => {
    await client.apiaries.deleteApiary({ id });
    navigate(paths.apiaries, { replace: true });
  });

  if (result === undefined) return <Loading />;
  if ("error" in result || result.value === undefined) return <NotFound back={paths.apiaries} />;
  const a = result.value;
  const hasCoords = a.lat !== 0 || a.lng !== 0;
  return (
    <Page
      title={a.name}
      back={paths.apiaries}
      actions={
        <Writable>
          <Link href={paths.editApiary(a.id)} className="button button--secondary">
            {tc("edit")}
          </Link>
        </Writable>
      }
    >
      <Card>
        {a.address && <p>{a.address}</p>}
        {hasCoords && (
          <p>
            <a
              href={`https://www.openstreetmap.org/?mlat=${a.lat}&mlon=${a.lng}#map=16/${a.lat}/${a.lng}`}
              target="_blank"
              rel="noreferrer"
            >
              {t("map")} ({fmt.number(a.lat, 5)}, {fmt.number(a.lng, 5)})
            </a>
          </p>
        )}
        <p className="muted">{t("created", { date: fmt.date(a.createdAt) })}</p>
      </Card>
      <Card title={t("hivesHere")}>
        {hives === undefined ? (
          <Loading />
        ) : hives.length === 0 ? (
          <Empty>{t("noHives")}</Empty>
        ) : (
          <ul className="list">
            {hives.map((h) => (
              <li key={h.id} className="list__item">
                <Link href={paths.hive(h.id)} className="list__link">
                  <span className="list__title">{h.name}</span>
                  <span className="list__meta">{label.hiveStatus(tc, h.status)}</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
        <Writable>
          <div className="form__actions">
            <Link href={paths.newHive(a.id)} className="button">
              {t("addHive")}
            </Link>
            <Link href={paths.newTask({ apiary: a.id })} className="button button--secondary">
              {t("addTask")}
            </Link>
          </div>
        </Writable>
      </Card>
      {!readOnly && (
        <Card>
          {hives !== undefined && hives.length > 0 ? (
            <p className="muted">{t("deleteBlocked", { count: hives.length })}</p>
          ) : (
            <ConfirmButton
              label={t("deleteApiary")}
              onConfirm={() => void remove.run()}
              disabled={remove.busy}
            />
          )}
          <ErrorNote error={remove.error} />
        </Card>
      )}
    </Page>
  );
}
