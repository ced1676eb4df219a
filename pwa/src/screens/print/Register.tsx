/**
 * The treatment register (`/register?year=2026&apiary=…`, issue 26), the German "Bestandsbuch":
 * per organization and year, or per apiary; every treatment with date, hive and apiary, product,
 * active ingredient, batch, dose, method, end of withdrawal, reason, who recorded it and the
 * supplier. Corrected and deleted entries stay, struck through, with when and by whom
 * (GetTreatmentRegister, from the replica: it works offline). Printed with the browser's dialog
 * (print.css: A4, black on white, no app chrome, headers on every page) or downloaded as CSV
 * in the app's language (client-core's one CSV writer).
 */
import "./print.css";
import { csvFile } from "@hivekeep/client-core/core";
import { useLocation, useSearch } from "wouter";
import { useAppSession } from "../../app/client.tsx";
import { useNow } from "../../app/now.tsx";
import { paths } from "../../app/paths.ts";
import { useFormat } from "../../format.ts";
import { useMessages, useSheetLanguage } from "../../i18n.ts";
import { SelectField } from "../../ui/forms.tsx";
import { LiveView, Loading, Page } from "../../ui/page.tsx";
import { printMessages } from "./messages.ts";
import { useUserNames } from "./names.ts";
import { type RegisterData, useRegister } from "./queries.ts";
import {
  type RegisterLine,
  registerColumns,
  registerCsvRow,
  registerLines,
} from "./register-rows.ts";

/** The year and apiary a register URL names; the year defaults to the current one. */
export function registerSelection(search: string, now: Date): { year: number; apiaryId: string } {
  const q = new URLSearchParams(search);
  const year = Number(q.get("year") ?? "");
  return {
    year:
      Number.isInteger(year) && year >= 0 && year <= 9999 && q.has("year")
        ? year
        : now.getFullYear(),
    apiaryId: q.get("apiary") ?? "",
  };
}

export default function Register() {
  const t = useMessages(printMessages);
  const now = useNow();
  const { year, apiaryId } = registerSelection(useSearch(), now);
  const live = useRegister(year, apiaryId);
  return (
    <LiveView
      live={live}
      back={paths.settings}
      loading={
        <Page title={t("registerTitle")}>
          <Loading />
        </Page>
      }
    >
      {(data) => <RegisterView data={data} year={year} apiaryId={apiaryId} />}
    </LiveView>
  );
}

function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: "text/csv;charset=utf-8" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function RegisterView(props: { data: RegisterData; year: number; apiaryId: string }) {
  const t = useMessages(printMessages);
  const fmt = useFormat();
  const lang = useSheetLanguage();
  const now = useNow();
  const session = useAppSession();
  const [, navigate] = useLocation();
  const user = useUserNames();
  const { data, year, apiaryId } = props;
  const lines = registerLines(data.entries, { user });
  const hiveName = (id: string) => data.hiveNames.get(id) ?? t("deletedHive");
  const apiaryName = (id: string) => data.apiaryNames.get(id) ?? t("deletedApiary");
  const apiaryTitle = apiaryId === "" ? "" : apiaryName(apiaryId);
  const yearText = year === 0 ? t("allYears") : String(year);
  const title =
    apiaryId === ""
      ? t("registerOf", { year: yearText })
      : t("registerOfApiary", { year: yearText, apiary: apiaryTitle });
  const status = (l: RegisterLine) =>
    l.state === "replaced"
      ? t("correctedOn", { when: fmt.dateTime(l.changedAt), who: l.changedBy ?? "" })
      : l.state === "merged"
        ? t("mergedWith")
        : l.state === "deleted"
          ? t("deletedOn", { when: fmt.dateTime(l.changedAt), who: l.changedBy ?? "" })
          : l.corrected
            ? t("corrected")
            : "";
  const go = (y: number, a: string) =>
    navigate(`${paths.register}?year=${y}${a ? `&apiary=${encodeURIComponent(a)}` : ""}`, {
      replace: true,
    });
  const thisYear = now.getFullYear();
  const years = Array.from({ length: 6 }, (_, i) => thisYear - i);
  if (!years.includes(year) && year !== 0) years.push(year);

  const csv = () =>
    download(
      `${t("registerTitle").toLowerCase().replaceAll(" ", "-")}-${yearText}.csv`,
      csvFile(
        registerColumns.map((c) => t(`col.${c}`)),
        lines.map((l) =>
          registerCsvRow(
            l,
            { hive: hiveName(l.treatment.hiveId), apiary: apiaryName(l.treatment.apiaryId) },
            status(l),
          ),
        ),
        lang,
      ),
    );

  return (
    <Page
      title={title}
      back={paths.settings}
      actions={
        <>
          <button type="button" className="button" onClick={() => window.print()}>
            {t("print")}
          </button>
          <button type="button" className="button button--secondary" onClick={csv}>
            {t("downloadCsv")}
          </button>
        </>
      }
    >
      <div className="print-choice no-print">
        <SelectField
          label={t("year")}
          value={year}
          options={[
            ...years.map((y) => ({ value: y, label: String(y) })),
            { value: 0, label: t("allYears") },
          ]}
          onChange={(y) => go(y, apiaryId)}
        />
        <SelectField
          label={t("apiary")}
          value={apiaryId}
          options={[
            { value: "", label: t("allApiaries") },
            ...data.apiaries.map((a) => ({ value: a.id, label: a.name })),
          ]}
          onChange={(a) => go(year, a)}
        />
      </div>
      <p className="print-only print-meta">
        {t("printedOn", { organization: session.organization, date: fmt.date(now) })}
      </p>
      <p className="muted">{t("registerIntro")}</p>
      {lines.length === 0 ? (
        <p>{t("none")}</p>
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a wide table scrolls in this box; the keyboard must reach it (axe scrollable-region-focusable).
        <section className="print-table-wrap" tabIndex={0} aria-label={title}>
          <table className="print-table register-table">
            <thead>
              <tr>
                {registerColumns.map((c) => (
                  <th key={c} scope="col">
                    {t(`col.${c}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {lines.map((l) => {
                const x = l.treatment;
                return (
                  <tr key={l.key} className={`register-line register-line--${l.state}`}>
                    <td className="print-date">{fmt.date(x.date)}</td>
                    <td>{hiveName(x.hiveId)}</td>
                    <td>{apiaryName(x.apiaryId)}</td>
                    <td>{x.product}</td>
                    <td>{x.activeIngredient}</td>
                    <td>{x.batchNumber}</td>
                    <td>{x.dose}</td>
                    <td>{x.method}</td>
                    <td className="print-date">
                      {x.withdrawalUntil ? fmt.date(x.withdrawalUntil) : ""}
                    </td>
                    <td>{x.reason}</td>
                    <td>{l.recordedBy}</td>
                    <td>{x.supplier}</td>
                    <td className="register-status print-wide">{status(l)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </section>
      )}
      <h2 className="print-subtitle">{t("harvestsTitle")}</h2>
      {data.inWithdrawal.length === 0 ? (
        <p>{t("harvestsNone")}</p>
      ) : (
        <ul className="print-harvests" data-testid="register-harvests">
          {data.inWithdrawal.map(({ harvest: h, treatment: w }) => (
            <li key={h.id}>
              {t("harvestLine", {
                date: fmt.date(h.date),
                hive: hiveName(h.hiveId),
                kg: fmt.kg(h.amountKg),
                product: w.product,
                until: fmt.date(w.withdrawalUntil),
              })}
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}
