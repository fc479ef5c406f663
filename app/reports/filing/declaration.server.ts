import { sql } from "drizzle-orm";
import { countries, filingValues, products } from "~/db/schema";
import type { RowChangesDeclaration } from "~/reports/frame/changes.server";
import type { ReportDeclaration } from "~/reports/frame/workflow.server";
import { filingSubmissionTables } from "./submission.server";
import { filingThreadRows } from "./thread-rows.server";

/** A stored row is one cell of the grid (a country's row, a product's column): its status is what changes. */
const filingChanges: RowChangesDeclaration = {
  rowKey: (row) => sql`${row("countryId")} || ':' || ${row("productId")}`,
  naturalKey: (row) => [row("countryId"), row("productId")],
  cells: [{ key: "status", columns: ["status"], shown: (row) => row("status") }],
  identity: [
    { key: "country", shown: (row) => sql`(select ${countries.name} from ${countries} where ${countries.id} = ${row("countryId")})` },
    { key: "product", shown: (row) => sql`(select ${products.name} from ${products} where ${products.id} = ${row("productId")})` },
  ],
};

/** The Filing Plans as the workflow knows them. */
export const filingDeclaration: ReportDeclaration = {
  rowTable: filingValues,
  changes: filingChanges,
  submissionTables: filingSubmissionTables,
  threadRows: filingThreadRows,
};
