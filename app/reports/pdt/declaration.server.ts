import { sql } from "drizzle-orm";
import { pdtValues, products, stages } from "~/db/schema";
import type { RowChangesDeclaration } from "~/reports/frame/changes.server";
import type { ReportDeclaration } from "~/reports/frame/workflow.server";
import { pdtSubmissionTables } from "./submission.server";
import { pdtChangesToExplain } from "./slips.server";
import { pdtThreadRows } from "./thread-rows.server";
import { pdtColumnLabel } from "./rows";

/** A timeline row is a product's stage: its dates and notes are what changes (dates as stored, YYYY-MM-DD). */
const pdtChanges: RowChangesDeclaration = {
  rowKey: (row) => sql`${row("productId")} || ':' || ${row("stageId")}`,
  naturalKey: (row) => [row("productId"), row("stageId")],
  cells: [
    { key: "startDate", columns: ["startDate"], shown: (row) => row("startDate") },
    { key: "endDate", columns: ["endDate"], shown: (row) => row("endDate") },
    { key: "notes", columns: ["notes"], shown: (row) => row("notes") },
  ],
  identity: [
    { key: "productName", shown: (row) => sql`(select ${products.name} from ${products} where ${products.id} = ${row("productId")})` },
    { key: "stageName", shown: (row) => sql`(select ${stages.name} from ${stages} where ${stages.id} = ${row("stageId")})` },
  ],
};

/** The Development Timeline as the workflow knows it. */
export const pdtDeclaration: ReportDeclaration = {
  rowTable: pdtValues,
  changesToExplain: pdtChangesToExplain,
  changes: pdtChanges,
  submissionTables: pdtSubmissionTables,
  threadRows: pdtThreadRows,
  columnLabel: pdtColumnLabel,
};
