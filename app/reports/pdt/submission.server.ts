/**
 * The Development Timeline's table in the proof of a submission: a row per product and stage the
 * snapshot holds, in the grid's order (product, then the stage's order), with the quarter's dates
 * named as the screen names them and the notes.
 */
import { products, stages } from "~/db/schema";
import { db } from "~/db/client.server";
import { idIn } from "~/db/sql-pieces";
import { namesById } from "~/reports/frame/snapshot-names.server";
import { SUBMISSION_TEXTS, type SubmissionTable, type SubmissionTablesInput } from "~/reports/frame/submission-document";
import { namedPdtDate, PDT_COLUMN_LABELS } from "./rows";

const idOf = (value: unknown) => (typeof value === "number" ? value : -1);

export async function pdtSubmissionTables({ rows, quarterName, language, t }: SubmissionTablesInput): Promise<SubmissionTable[]> {
  const stageIds = [...new Set(rows.map((row) => idOf(row.stageId)))];
  const [productNames, stageRows] = await Promise.all([
    namesById(
      products,
      rows.map((row) => idOf(row.productId)),
    ),
    stageIds.length ? db.select({ id: stages.id, name: stages.name, sortOrder: stages.sortOrder }).from(stages).where(idIn(stages.id, stageIds)) : [],
  ]);
  const stageOf = new Map(stageRows.map((stage) => [stage.id, stage]));
  const productName = (row: Record<string, unknown>) => productNames.get(idOf(row.productId)) ?? "";
  const ordered = [...rows].sort(
    (a, b) =>
      productName(a).localeCompare(productName(b), "en") ||
      idOf(a.productId) - idOf(b.productId) ||
      (stageOf.get(idOf(a.stageId))?.sortOrder ?? 0) - (stageOf.get(idOf(b.stageId))?.sortOrder ?? 0),
  );
  const withQuarter = (key: keyof typeof PDT_COLUMN_LABELS) => t("{{column}} ({{quarter}})", { column: t(PDT_COLUMN_LABELS[key]), quarter: quarterName });
  const date = (value: unknown) => (typeof value === "string" ? namedPdtDate(value, language) : "");
  return [
    {
      title: t("Development Timeline"),
      columns: [
        { label: t("Product") },
        { label: t("Stage") },
        { label: withQuarter("startDate") },
        { label: withQuarter("endDate") },
        { label: t(PDT_COLUMN_LABELS.notes) },
      ],
      rows: ordered.map((row, index) => [
        index > 0 && ordered[index - 1].productId === row.productId ? "" : productName(row),
        t(stageOf.get(idOf(row.stageId))?.name ?? ""),
        date(row.startDate),
        date(row.endDate),
        typeof row.notes === "string" ? row.notes : "",
      ]),
      empty: t(SUBMISSION_TEXTS.noRows),
    },
  ];
}
