import { sql } from "drizzle-orm";
import { countries, formulationTypes, products, productVerifications, reports, salesRows } from "~/db/schema";
import { MONTHS } from "~/db/reference-data";
import type { RowChangesDeclaration, RowField } from "~/reports/frame/changes.server";
import type { ReportDeclaration } from "~/reports/frame/workflow.server";
import { salesSubmissionTables } from "./submission.server";
import { salesFindings } from "./checks.server";
import { pendingVerificationCount } from "./pending-verifications.server";
import { salesChangesToExplain } from "./swings.server";
import { salesThreadRows } from "./thread-rows.server";
import { tableColumnLabel } from "./columns";

/** A month's number as the grid names it (MONTHS: constants, written into the statement). */
const MONTH_NAMES = sql.raw(`array[${MONTHS.map((month) => `'${month}'`).join(", ")}]::text[]`);

/** A stored number as the grid shows it (storedNumberText: no trailing zeros). */
const shownNumber = (key: string) => ({ key, columns: [key], shown: (row: RowField) => sql`trim_scale(${row(key)})` });
const shownText = (key: string, column = key) => ({ key, columns: [column], shown: (row: RowField) => row(column) });

/** The Sales Report's cells as the grid shows them (both tables' columns; a table's others are empty). */
const salesChanges: RowChangesDeclaration = {
  rowKey: (row) => row("id"),
  table: (row) => row("kind"),
  // The same sale in another quarter: its table, product, country and purchaser.
  naturalKey: (row) => [row("kind"), sql`coalesce(${row("productId")}::text, lower(${row("productName")}))`, row("countryId"), sql`lower(${row("purchaser")})`],
  cells: [
    shownText("year"),
    { key: "month", columns: ["month"], shown: (row) => sql`(${MONTH_NAMES})[${row("month")}]` },
    { key: "country", columns: ["countryId"], shown: (row) => sql`(select ${countries.name} from ${countries} where ${countries.id} = ${row("countryId")})` },
    shownText("purchaser"),
    {
      key: "productName",
      columns: ["productId", "productName"],
      shown: (row) => sql`coalesce((select ${products.name} from ${products} where ${products.id} = ${row("productId")}), ${row("productName")})`,
    },
    shownText("strength"),
    {
      key: "formulationType",
      columns: ["formulationTypeId"],
      shown: (row) => sql`(select ${formulationTypes.name} from ${formulationTypes} where ${formulationTypes.id} = ${row("formulationTypeId")})`,
    },
    shownNumber("packSize"),
    shownNumber("quantity"),
    shownText("currency", "currencyCode"),
    shownNumber("grossSalePriceCurrency"),
    shownNumber("usdExchangeRate"),
    shownNumber("grossSalePriceUsd"),
    shownNumber("totalGrossValue"),
    shownNumber("deductableExpenses"),
    shownNumber("totalValue"),
    shownNumber("royaltyPercent"),
    shownNumber("royaltyDue"),
    shownText("procurementEndCountry"),
    shownText("comments"),
  ],
  // A product verification decided rewrites the product of the rows that named it, without a save.
  stamp: (reportId) =>
    sql`(select max(${productVerifications.decidedAt})::text from ${productVerifications} where ${productVerifications.partnerId} = (select ${reports.partnerId} from ${reports} where ${reports.id} = ${reportId}))`,
};

/** The Sales Report as the workflow knows it. */
export const salesDeclaration: ReportDeclaration = {
  rowTable: salesRows,
  decisionBlockers: pendingVerificationCount,
  checks: salesFindings,
  changesToExplain: salesChangesToExplain,
  threadRows: salesThreadRows,
  columnLabel: tableColumnLabel,
  changes: salesChanges,
  submissionTables: salesSubmissionTables,
};
