/**
 * Filing Plans by machine: read, save, submit, decide, read messages. `/template/filing/` is the
 * signed-in partner's own report, `/template/filing/{partnerId}/` a partner's report as an
 * administrator sees it; `?quarter=` picks an earlier quarter. The rules are the Filing Plans
 * screen's: loadFilingPlan, filingCellsFromMap and saveFilingPlan, decideReport, markReportMessagesRead.
 */
import * as z from "zod";
import { FILING_POSTED_REFUSALS, filingCellsFromMap, listFilingCountries, loadFilingPlan, saveFilingPlan, type FilingPlanView } from "~/models/filing-plan.server";
import { resolveQuarter } from "~/models/report-screen.server";
import { FILING_STATUS_MAX_CHARS } from "~/reports/filing/contract";
import { FILING_EMPTY } from "~/reports/filing/statuses";
import { invalid, type ApiCall } from "../call.server";
import { frameAnswer, frameShape, ReportMetaSchema, reportMeta, ReportSavedSchema, reportSavedAnswer, reportTemplateCalls, type TemplateSaveInput } from "./report-frame.server";

const TAG = "Filing Plans";

const FilingRowSchema = z
  .object({
    country_id: z.number().int(),
    country: z.string(),
    cells: z.record(z.string(), z.string()).meta({ description: `By product id: the status, or "${FILING_EMPTY}" for an empty cell.` }),
  })
  .meta({ id: "FilingRow" });

const FilingTemplate = z
  .object({
    ...frameShape,
    filing_meta: ReportMetaSchema,
    product_details: z
      .array(z.object({ product_id: z.number().int(), product_name: z.string(), product_type: z.enum(["API", "FDF"]) }))
      .meta({ description: "The partner's active products: the grid's columns, by name." }),
    status_dropdown: z.object({ API: z.array(z.string()), FDF: z.array(z.string()) }).meta({ description: "The statuses a cell may hold, by its product's type, for the quarter." }),
    carried_over_from: z.string().nullable().meta({ description: "The quarter whose plan is shown because this quarter's report has not been saved yet (null: its own)." }),
    template_data: z.array(FilingRowSchema).meta({ description: "A row per country, by name." }),
  })
  .meta({ id: "FilingTemplate" });

function template(view: FilingPlanView): z.infer<typeof FilingTemplate> {
  return {
    ...frameAnswer(view),
    filing_meta: reportMeta(view),
    product_details: view.products.map((product) => ({ product_id: product.id, product_name: product.name, product_type: product.category })),
    status_dropdown: view.statusLists,
    carried_over_from: view.carriedOverFrom,
    template_data: view.rows.map((row) => ({ country_id: row.countryId, country: row.country, cells: row.cells })),
  };
}

const FilingSaveBody = z
  .object({
    version: z.number().int().min(0).optional().meta({ description: "filing_meta.version as read (left out: no check)." }),
    cells: z
      .record(z.string(), z.record(z.string(), z.string().max(FILING_STATUS_MAX_CHARS).nullable()))
      .meta({ description: `Country id to product id to status: the changed cells only; "", "${FILING_EMPTY}" or null empties a cell. A status is one of status_dropdown for the product's type, in any case.` }),
  })
  .meta({ id: "FilingSaveBody" });

const SAVE_EXAMPLE = { version: 1, cells: { "12": { "3": "Filed", "5": FILING_EMPTY } } };

/** A save, or a submission that saves first, of the partner's Filing Plans in the quarter asked for. */
async function save({ user, partnerId, quarterName, body, action, comment, requestId }: TemplateSaveInput<z.infer<typeof FilingSaveBody>>) {
  const posted = filingCellsFromMap(body.cells);
  if (!posted.ok) throw invalid({ [["cells", ...posted.path].join(".")]: [FILING_POSTED_REFUSALS[posted.reason]] });
  const quarter = await resolveQuarter(quarterName);
  const saved = await saveFilingPlan({ actor: user, partnerId, quarterId: quarter.id, expectedVersion: body.version, cells: posted.cells, action, comment, requestId });
  if (!saved.ok) {
    // The problems name rows by the country's place in the grid, columns by product id.
    const countries = await listFilingCountries();
    const errors: Record<string, string[]> = {};
    for (const problem of saved.problems) {
      const country = countries[problem.rowNumber - 1];
      problem.keys.forEach((productId, index) => {
        errors[`cells.${country?.id}.${productId}`] = [`${problem.columns[index]}: not a status of this product's list.`];
      });
    }
    throw invalid(errors);
  }
  return reportSavedAnswer(action, saved);
}

export const FILING_CALLS: ApiCall[] = reportTemplateCalls({
  type: "filing",
  tag: TAG,
  template: FilingTemplate,
  load: async (input) => template(await loadFilingPlan(input)),
  saveBody: FilingSaveBody,
  emptySave: (version) => ({ version, cells: {} }),
  maxBodyBytes: 16 * 1024 * 1024,
  saved: ReportSavedSchema,
  save,
  summaries: {
    save: "Saves the caller's changed cells. Nothing is saved when a status is not one of its product's list.",
    adminSave: "An administrator saves a partner's cells (any quarter, with ?quarter=).",
    submit: "Submits the caller's Filing Plans of the open quarter to the administrators, with a comment.",
  },
  examples: { save: SAVE_EXAMPLE, submit: { message: "Filing plans updated.", version: 1 } },
});
