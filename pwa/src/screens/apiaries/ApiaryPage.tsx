/** One apiary: where it is, the hives standing there, edit and delete. */
import type { Apiary, Hive } from "@hivekeep/proto";
import { Link, useLocation, useParams } from "wouter";
import { useClient, useReadOnly } from "../../app/client.tsx";
import { paths } from "../../app/paths.ts";
import { useFormat } from "../../format.ts";
import { useMessages } from "../../i18n.ts";
import { commonMessages, label } from "../../ui/messages.ts";
import {
  Card,
  ConfirmButton,
  Empty,
  ErrorNote,
  LiveView,
  Page,
  useAction,
  Writable,
} from "../../ui/page.tsx";
import { printMessages } from "../print/messages.ts";
import { apiaryMessages } from "./messages.ts";
import { hasCoords, mapUrl } from "./present.ts";
import { type ApiaryPage as Data, useApiaryPage } from "./queries.ts";

export default function ApiaryPage() {
  const { id } = useParams<{ id: string }>();
  const page = useApiaryPage(id);
  return (
    <LiveView live={page} back={paths.apiaries}>
      {(data) => <ApiaryView data={data} />}
    </LiveView>
  );
}

function ApiaryView(props: { readonly data: Data }) {
  const tc = useMessages(commonMessages);
  const { apiary: a, hives } = props.data;
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
      <Place apiary={a} />
      <Hives apiary={a} hives={hives} />
      <Delete apiary={a} hives={hives.length} />
    </Page>
  );
}

/** The address, the map link and when the apiary was added. */
function Place(props: { readonly apiary: Apiary }) {
  const t = useMessages(apiaryMessages);
  const fmt = useFormat();
  const a = props.apiary;
  return (
    <Card>
      {a.address && <p>{a.address}</p>}
      {hasCoords(a) && (
        <p>
          <a href={mapUrl(a)} target="_blank" rel="noreferrer" className="tap-link">
            {t("map")} ({fmt.number(a.lat, 5)}, {fmt.number(a.lng, 5)})
          </a>
        </p>
      )}
      <p className="muted">{t("created", { date: fmt.date(a.createdAt) })}</p>
    </Card>
  );
}

function Hives(props: { readonly apiary: Apiary; readonly hives: readonly Hive[] }) {
  const t = useMessages(apiaryMessages);
  const tp = useMessages(printMessages);
  const tc = useMessages(commonMessages);
  const { apiary: a, hives } = props;
  return (
    <Card title={t("hivesHere")}>
      {hives.length === 0 ? (
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
      <p>
        <Link href={`${paths.register}?apiary=${encodeURIComponent(a.id)}`} className="tap-link">
          {tp("openRegister")}
        </Link>
      </p>
    </Card>
  );
}

/** Deleting the apiary, once no hive stands there (a read-only session has none). */
function Delete(props: { readonly apiary: Apiary; readonly hives: number }) {
  const t = useMessages(apiaryMessages);
  const tc = useMessages(commonMessages);
  const client = useClient();
  const readOnly = useReadOnly();
  const [, navigate] = useLocation();
  const id = props.apiary.id;
  const remove = useAction(async () => {
    await client.apiaries.deleteApiary({ id });
    navigate(paths.apiaries, { replace: true });
  });
  if (readOnly) return null;
  return (
    <Card>
      {props.hives > 0 ? (
        <p className="muted">{t("deleteBlocked", { count: props.hives })}</p>
      ) : (
        <ConfirmButton
          label={t("deleteApiary")}
          confirm={t("deleteApiaryConfirm", { name: props.apiary.name })}
          confirmLabel={t("deleteApiary")}
          keepLabel={tc("keep")}
          onConfirm={() => void remove.run()}
          disabled={remove.busy}
        />
      )}
      <ErrorNote error={remove.error} />
    </Card>
  );
}
