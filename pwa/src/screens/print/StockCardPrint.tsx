/**
 * A hive's stock card (`/hives/:id/stock-card`, issue 26): one row per visit, oldest first, one
 * column per stock-card field (the inspection form's fields), with the hive, its apiary and the
 * current queen at the top. From the replica (offline); printed with the browser's dialog
 * (print.css: A4 landscape-free portrait, black on white, headers on every page).
 */
import "./print.css";
import type { Inspection } from "@hivekeep/proto";
import { useParams } from "wouter";
import { useAppSession } from "../../app/client.tsx";
import { useNow } from "../../app/now.tsx";
import { paths } from "../../app/paths.ts";
import { useFormat } from "../../format.ts";
import { useMessages } from "../../i18n.ts";
import { commonMessages, label } from "../../ui/messages.ts";
import { LiveView, Loading, Page } from "../../ui/page.tsx";
import { printMessages } from "./messages.ts";
import { type StockCardData, useStockCard } from "./queries.ts";

/** The stock card's columns, in order. */
export const stockCardColumns = [
  "date",
  "frames",
  "broodFrames",
  "queenSeen",
  "eggsSeen",
  "coveredLarva",
  "queenCells",
  "stores",
  "temperament",
  "calmness",
  "varroa",
  "superAdded",
  "weight",
  "note",
] as const;

export default function StockCardPrint() {
  const t = useMessages(printMessages);
  const { id } = useParams<{ id: string }>();
  const live = useStockCard(id);
  return (
    <LiveView
      live={live}
      back={paths.hive(id)}
      loading={
        <Page title={t("stockCardTitle", { hive: "" })}>
          <Loading />
        </Page>
      }
    >
      {(data) => <StockCardView data={data} />}
    </LiveView>
  );
}

function StockCardView({ data }: { data: StockCardData }) {
  const t = useMessages(printMessages);
  const tc = useMessages(commonMessages);
  const fmt = useFormat();
  const now = useNow();
  const session = useAppSession();
  const { hive, apiary, queen } = data;
  const title = t("stockCardTitle", { hive: hive.name });
  const n = (v: number) => (v > 0 ? fmt.number(v) : "");
  const yes = (v: boolean) => (v ? t("yes") : t("no"));
  const cell = (i: Inspection, c: (typeof stockCardColumns)[number]): string => {
    switch (c) {
      case "date":
        return fmt.date(i.date);
      case "frames":
        return n(i.frames);
      case "broodFrames":
        return n(i.broodFrames);
      case "queenSeen":
        return yes(i.queenSeen);
      case "eggsSeen":
        return yes(i.eggsSeen);
      case "coveredLarva":
        return yes(i.coveredLarva);
      case "queenCells":
        return n(i.queenCells);
      case "stores":
        return i.stores ? label.stores(tc, i.stores) : "";
      case "temperament":
        return i.temperament ? label.temperament(tc, i.temperament) : "";
      case "calmness":
        return n(i.calmness);
      case "varroa":
        return i.varroa;
      case "superAdded":
        return i.superAdded ? t("yes") : "";
      case "weight":
        return i.weightKg > 0 ? fmt.kg(i.weightKg) : "";
      case "note":
        return i.note;
    }
  };
  return (
    <Page
      title={title}
      back={paths.hive(hive.id)}
      actions={
        <button type="button" className="button" onClick={() => window.print()}>
          {t("print")}
        </button>
      }
    >
      <dl className="print-facts">
        <div>
          <dt>{t("col.hive")}</dt>
          <dd>{hive.name}</dd>
        </div>
        <div>
          <dt>{t("apiary")}</dt>
          <dd>{apiary?.name ?? t("deletedApiary")}</dd>
        </div>
        <div>
          <dt>{t("queen")}</dt>
          <dd data-testid="stock-card-queen">
            {queen
              ? t("queenLine", { year: queen.year, marking: label.marking(tc, queen.marking) })
              : t("noQueen")}
          </dd>
        </div>
      </dl>
      <p className="print-only print-meta">
        {t("printedOn", { organization: session.organization, date: fmt.date(now) })}
      </p>
      {data.inspections.length === 0 ? (
        <p>{t("noVisits")}</p>
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a wide table scrolls in this box; the keyboard must reach it (axe scrollable-region-focusable).
        <section className="print-table-wrap" tabIndex={0} aria-label={title}>
          <table className="print-table stock-card-table">
            <thead>
              <tr>
                {stockCardColumns.map((c) => (
                  <th key={c} scope="col">
                    {t(`sc.${c}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {data.inspections.map((i) => (
                <tr key={i.id}>
                  {stockCardColumns.map((c) => (
                    <td
                      key={c}
                      className={
                        c === "date" ? "print-date" : c === "note" ? "print-wide" : undefined
                      }
                    >
                      {cell(i, c)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </Page>
  );
}
