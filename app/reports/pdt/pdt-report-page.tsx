import { useState } from "react";
import { useTranslation } from "react-i18next";
import { PDT_NOTHING_TO_REPORT, PDT_PROBLEM_HEADINGS } from "~/reports/pdt/contract";
import { namedPdtDate, PDT_COLUMN_LABELS, pdtColumnLabel } from "~/reports/pdt/rows";
import type { PdtReportPageData } from "~/reports/pdt/page.server";
import { PdtTimeline, type TimelineProduct } from "./pdt-timeline";
import { ReportPage, useReportScreen, type ReportTexts } from "~/reports/frame/report-page";
import type { ReportPageProps } from "~/reports/frame/report-route";
import { PdtFormTable } from "./pdt-form-table";
import type { PdtGridEditor } from "./pdt-grid-editor";
import { lazyEditor } from "~/reports/frame/lazy-editor";

/** The rows as the timeline picture groups them: each product's stages, this quarter's plan over the last one's. */
function timelineProducts(rows: PdtReportPageData["view"]["rows"]): TimelineProduct[] {
  const products: TimelineProduct[] = [];
  for (const row of rows) {
    let product = products[products.length - 1];
    if (!product || product.name !== row.productName) {
      product = { name: row.productName, stages: [] };
      products.push(product);
    }
    product.stages.push({
      name: row.stageName,
      current: { start: row.startDate, end: row.endDate },
      previous: { start: row.previous?.startDate ?? null, end: row.previous?.endDate ?? null },
    });
  }
  return products;
}

/** Below the drawer's breakpoint the frozen Product and Stage columns fill the screen: the timeline is edited as cards, one per product. */
const NARROW_SCREEN = "(max-width: 991.98px)";

/** Whether the grid fits the screen, judged once when the page starts (a rotated tablet keeps the layout its edits are in). */
function useGridFits(): boolean {
  const [fits] = useState(() => typeof window !== "undefined" && !window.matchMedia(NARROW_SCREEN).matches);
  return fits;
}

const PDT_TEXTS: ReportTexts = {
  name: "Development Timeline",
  problemHeadings: PDT_PROBLEM_HEADINGS,
  nothingToReportDescription: PDT_NOTHING_TO_REPORT,
  columnLabel: pdtColumnLabel,
  // A removed row: its product and stage, its dates as the screen writes them, its notes.
  changes: {
    tables: [""],
    columns: () => [
      { key: "productName", label: "Product" },
      { key: "stageName", label: "Stage", shows: "translated" },
      { key: "startDate", label: PDT_COLUMN_LABELS.startDate, shows: namedPdtDate },
      { key: "endDate", label: PDT_COLUMN_LABELS.endDate, shows: namedPdtDate },
      { key: "notes", label: PDT_COLUMN_LABELS.notes },
    ],
  },
};

/** The grid editor (react-data-grid, the date rules), loaded after the page. */
const usePdtGridEditor = lazyEditor<typeof PdtGridEditor>(() => import("./pdt-grid-editor").then((module) => module.PdtGridEditor), "Development Timeline");

/**
 * The Product Development Timeline screen in the report frame: the grid, or the plain form (without
 * JavaScript, and as cards on a narrow screen), then the timeline picture.
 */
export function PdtReportPage({ data, actionData }: ReportPageProps<PdtReportPageData>) {
  const { t, i18n } = useTranslation();
  const screen = useReportScreen(data, actionData, PDT_TEXTS);
  const gridFits = useGridFits();
  const GridEditor = usePdtGridEditor(screen.hydrated);
  const { view } = data;
  const title = t("Development Timeline for {{partner}} ({{quarter}})", { partner: view.partner.companyName, quarter: view.quarter.name });

  return (
    <ReportPage
      data={data}
      screen={screen}
      title={title}
      editor={GridEditor && gridFits ? <GridEditor view={view} screen={screen} threads={data.threads} /> : null}
      plainForm={
        <PdtFormTable
          // A new form after a save: its fields show what was stored.
          key={`${view.quarter.id}:${view.report.version}`}
          rows={view.rows}
          quarter={view.quarter.name}
          earlierQuarters={view.quarterOrder
            .slice(0, -1)
            .map((quarter) => quarter.name)
            .reverse()}
          form={screen.plainForm}
          threads={data.threads}
          dateReadings={data.dateReadings}
          changes={data.comparison}
        />
      }
      // A timeline always has its rows: 'nothing to report' submits the plan as it stands.
      nothingToReport
    >
      <section className="card pdt-timeline-card" aria-label={t("Timeline")}>
        <PdtTimeline
          products={timelineProducts(view.rows)}
          quarters={view.quarterOrder}
          direction={i18n.dir() === "rtl" ? "rtl" : "ltr"}
          currentLabel={t("This quarter's plan")}
          previousLabel={t("Last quarter's plan")}
          title={title}
        />
      </section>
    </ReportPage>
  );
}
