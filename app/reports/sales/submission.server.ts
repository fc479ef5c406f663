/**
 * The Sales Report's tables in the proof of a submission: the API and FDF tables with the grid's
 * columns, drawn from the snapshot's rows (ids named as the screen names them), and the totals of
 * the quantities and values.
 */
import Decimal from "decimal.js";
import { countries, formulationTypes, products } from "~/db/schema";
import { MONTHS } from "~/db/reference-data";
import { formatMonthName } from "~/utils/dates";
import { countryName } from "~/utils/locale-format";
import { namesById } from "~/reports/frame/snapshot-names.server";
import { SUBMISSION_TEXTS, type SubmissionTable, type SubmissionTablesInput } from "~/reports/frame/submission-document";
import { storedNumberText } from "./rows";
import { columnsFor, SALES_KINDS, type SalesColumn, type SalesColumnKey, type SalesKind } from "./columns";

/** The columns each table sums (the other figures are prices, rates and percentages). */
const SUMMED: Record<SalesKind, readonly SalesColumnKey[]> = {
  API: ["quantity", "totalValue"],
  FDF: ["quantity", "totalGrossValue", "deductableExpenses", "totalValue", "royaltyDue"],
};

/** A snapshot row's stored column for a grid column (the grid names some of them its own way). */
const STORED: Partial<Record<SalesColumnKey, string>> = { currency: "currencyCode" };

const text = (value: unknown) => (value === null || value === undefined ? "" : String(value));

export async function salesSubmissionTables({ rows, language, t }: SubmissionTablesInput): Promise<SubmissionTable[]> {
  const ids = (key: string) => rows.map((row) => row[key]).filter((id): id is number => typeof id === "number");
  const [countryNames, productNames, formulationNames] = await Promise.all([
    namesById(countries, ids("countryId")),
    namesById(products, ids("productId")),
    namesById(formulationTypes, ids("formulationTypeId")),
  ]);
  const cell = (row: Record<string, unknown>, { key, type }: SalesColumn<SalesColumnKey>): string => {
    switch (key) {
      case "year":
        return text(row.year);
      case "month":
        return typeof row.month === "number" ? formatMonthName(MONTHS[row.month - 1] ?? "", language) : "";
      case "country":
        return typeof row.countryId === "number" ? countryName(countryNames.get(row.countryId) ?? "", language) : "";
      case "productName":
        // A product waiting for its verification has no id yet: the name as the partner entered it.
        return (typeof row.productId === "number" ? productNames.get(row.productId) : undefined) ?? text(row.productName);
      case "formulationType":
        return typeof row.formulationTypeId === "number" ? t(formulationNames.get(row.formulationTypeId) ?? "") : "";
      default: {
        const value = row[STORED[key] ?? key];
        // Figures as the grid shows them: the stored decimal without its trailing zeros.
        return type === "number" && typeof value === "string" ? storedNumberText(value) : text(value);
      }
    }
  };
  return SALES_KINDS.map((kind) => {
    const columns = columnsFor(kind);
    const ofKind = rows.filter((row) => row.kind === kind);
    const sums = new Map(SUMMED[kind].map((key) => [key, new Decimal(0)]));
    const shown = ofKind.map((row) =>
      columns.map((column) => {
        const value = cell(row, column);
        const sum = sums.get(column.key);
        if (sum && value !== "") sums.set(column.key, sum.plus(value));
        return value;
      }),
    );
    // The totals row: "Total" under Sr.No, the sums under the summed columns.
    const totals = [t(SUBMISSION_TEXTS.total), ...columns.map((column) => (sums.has(column.key) ? storedNumberText(sums.get(column.key)!.toFixed()) : ""))];
    return {
      title: t("{{kind}} sales", { kind }),
      columns: [{ label: t("Sr.No"), numeric: true }, ...columns.map((column) => ({ label: t(column.label), numeric: column.type === "number" }))],
      rows: shown.map((cells, index) => [String(index + 1), ...cells]),
      totals,
      empty: t(SUBMISSION_TEXTS.noRows),
    };
  });
}
