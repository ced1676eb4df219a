/** The overview of a new account: three steps to the first stock card (an apiary, a hive, a visit). */
import { Link } from "wouter";
import { useReadOnly } from "../../app/client.tsx";
import { paths } from "../../app/paths.ts";
import { useMessages } from "../../i18n.ts";
import { Card } from "../../ui/page.tsx";
import { dashboardMessages } from "./messages.ts";

export function GetStarted(props: { readonly apiaries: number }) {
  const t = useMessages(dashboardMessages);
  const readOnly = useReadOnly();
  const hasApiary = props.apiaries > 0;
  return (
    <Card title={t("startTitle")} className="dash__start">
      <p>{t("startIntro")}</p>
      <ol className="dash__steps">
        <li className="dash__step">
          {hasApiary ? (
            <p className="dash__step-title">
              <span className="badge badge--ok">✓ {t("done")}</span> {t("startApiaryDone")}
            </p>
          ) : (
            <>
              {readOnly ? (
                <p className="dash__step-title">{t("startApiary")}</p>
              ) : (
                <Link href={paths.newApiary} className="button button--primary button--big">
                  {t("startApiary")}
                </Link>
              )}
              <p className="muted">{t("startApiaryText")}</p>
            </>
          )}
        </li>
        <li className="dash__step">
          {hasApiary && !readOnly ? (
            <Link href={paths.newHive()} className="button button--primary button--big">
              {t("startHive")}
            </Link>
          ) : (
            <p className="dash__step-title">{t("startHive")}</p>
          )}
          <p className="muted">{hasApiary ? t("startHiveText") : t("startHiveWaiting")}</p>
        </li>
        <li className="dash__step">
          <p className="dash__step-title">{t("startInspect")}</p>
          <p className="muted">{t("startInspectText")}</p>
        </li>
      </ol>
    </Card>
  );
}
