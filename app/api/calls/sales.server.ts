/**
 * The Sales Report by machine: read, save, submit, decide, read messages. `/template/sales/` is
 * the signed-in partner's own report, `/template/sales/{partnerId}/` a partner's report as an
 * administrator sees it; `?quarter=` picks an earlier quarter. The rules are the Sales Report
 * screen's: saveSalesReport, decideReport and markReportMessagesRead.
 */
import * as z from "zod";
import { resolveQuarter } from "~/models/report-screen.server";
import { loadSalesReport, saveMessage, saveSalesReport, type SalesReportView } from "~/models/sales-report.server";
import { columnsFor, SALES_KINDS, type SalesKind } from "~/utils/sales-rows";
import { REPORT_SUBMITTED } from "~/reports/frame/contract";
import { SAVE_MAX_ROWS } from "~/reports/sales/contract";
import { idParam, invalid } from "../call.server";
import { frameAnswer, frameShape, ReportMetaSchema, reportMeta, reportTemplateCalls, type TemplateSaveInput } from "./report-frame.server";

const TAG = "Sales Report";

const cell = z.union([z.string().max(4000), z.number()]).optional();
function rowSchema(kind: SalesKind) {
  const cells = Object.fromEntries(columnsFor(kind).map((column) => [column.key, cell.meta({ description: column.label })]));
  return z.object({ id: idParam.optional().meta({ description: "A saved row's id (sales_report_id): the row is changed; without it the row is added." }), ...cells }).strict();
}
const RowsByKind = z.object({ API: z.array(z.record(z.string(), z.union([z.string(), z.number(), z.null()]))), FDF: z.array(z.record(z.string(), z.union([z.string(), z.number(), z.null()]))) });

const SalesTemplate = z
  .object({
    ...frameShape,
    sales_meta: ReportMetaSchema,
    template_data: RowsByKind.meta({ description: "The saved rows by table, each with its id." }),
  })
  .meta({ id: "SalesTemplate" });

function template(view: SalesReportView): z.infer<typeof SalesTemplate> {
  return { ...frameAnswer(view), sales_meta: reportMeta(view), template_data: view.rows as unknown as z.infer<typeof RowsByKind> };
}

const SaveBody = z
  .object({
    version: z.number().int().min(0).optional().meta({ description: "sales_meta.version as read (left out: no check)." }),
    sales_report_id: z.array(idParam).max(SAVE_MAX_ROWS).default([]).meta({ description: "Saved rows to delete." }),
    API: z.array(rowSchema("API")).max(SAVE_MAX_ROWS).default([]),
    FDF: z.array(rowSchema("FDF")).max(SAVE_MAX_ROWS).default([]),
  })
  .meta({ id: "SalesSaveBody" });

const Saved = z
  .object({
    status: z.literal("OK"),
    detail: z.string().meta({ example: "Data successfully recorded. Total Rows: 12, Newly Added Rows: 2" }),
    report_id: z.number().int(),
    version: z.number().int(),
    warnings: z.array(z.object({ row: z.number().int(), column: z.string(), expected: z.string() })),
  })
  .meta({ id: "SalesSaved" });

const SAVE_EXAMPLE = {
  version: 3,
  sales_report_id: [],
  API: [{ year: "2026", month: "October", country: "Kenya", purchaser: "Nairobi Pharma Ltd", productName: "Dolutegravir", quantity: "120", totalValue: "5000" }],
  FDF: [],
};

/** A save, or a submission that saves first, of the partner's report in the quarter asked for (the model checks who may). */
async function save({ user, partnerId, quarterName, body, action, comment, requestId }: TemplateSaveInput<z.infer<typeof SaveBody>>) {
  const quarter = await resolveQuarter(quarterName);
  const saved = await saveSalesReport({
    actor: user,
    partnerId,
    quarterId: quarter.id,
    expectedVersion: body.version,
    api: body.API,
    fdf: body.FDF,
    deletedIds: body.sales_report_id,
    action,
    comment,
    requestId,
  });
  if (!saved.ok) {
    const errors = Object.fromEntries(SALES_KINDS.flatMap((kind) => saved.problems[kind].map((problem) => [`${kind}.${problem.rowNumber - 1}`, problem.columns])));
    throw invalid(errors);
  }
  return Saved.parse({
    status: "OK",
    detail: action === "submit" ? REPORT_SUBMITTED : saveMessage(saved.counts).text,
    report_id: saved.reportId,
    version: saved.version,
    warnings: saved.warnings.FDF.map((warning) => ({ row: warning.rowNumber - 1, column: warning.label, expected: warning.expected })),
  });
}

export const SALES_CALLS = reportTemplateCalls({
  type: "sales",
  tag: TAG,
  template: SalesTemplate,
  load: async (input) => template(await loadSalesReport(input)),
  saveBody: SaveBody,
  emptySave: (version) => ({ version, sales_report_id: [], API: [], FDF: [] }),
  maxBodyBytes: 32 * 1024 * 1024,
  saved: Saved,
  save,
  summaries: {
    save: "Saves the caller's rows: changed and new rows, and the ids of saved rows to delete. Nothing is saved when a row is invalid.",
    adminSave: "An administrator saves a partner's rows.",
    submit: "Submits the caller's report of the open quarter to the administrators, with a comment.",
  },
  examples: { save: SAVE_EXAMPLE, submit: { message: "Q4 sales as agreed.", version: 4 } },
});
