/**
 * The Development Timeline (PDT) by machine: read, save, submit, decide, read messages.
 * `/template/pdt/` is the signed-in partner's own report, `/template/pdt/{partnerId}/` a partner's
 * report as an administrator sees it; `?quarter=` picks an earlier quarter. The rules are the PDT
 * screen's: loadPdtReport, splitPdtPostedRows and savePdtReport, decideReport, markReportMessagesRead.
 */
import * as z from "zod";
import { loadPdtReport, PDT_POSTED_REFUSALS, savePdtReport, splitPdtPostedRows, type PdtReportView } from "~/models/pdt-report.server";
import { resolveQuarter } from "~/models/report-screen.server";
import { PDT_CELL_MAX_CHARS, PDT_SAVE_MAX_ROWS } from "~/reports/pdt/contract";
import { PDT_COLUMN_LABELS, PDT_STATUSES, type PdtColumnKey } from "~/reports/pdt/rows";
import { PROJECT_STATUS_LABELS } from "~/utils/project-status";
import { idParam, invalid, type ApiCall } from "../call.server";
import { frameAnswer, frameShape, ReportMetaSchema, reportMeta, ReportSavedSchema, reportSavedAnswer, reportTemplateCalls, type TemplateSaveInput } from "./report-frame.server";

const TAG = "Development Timeline";

const isoDate = z.iso.date().nullable();
const PlanSchema = z.object({ start_date: isoDate, end_date: isoDate }).meta({ id: "PdtPlan" });

const PdtRowSchema = z
  .object({
    product_id: z.number().int(),
    product: z.string(),
    category: z.enum(["API", "FDF"]),
    stage_id: z.number().int(),
    stage: z.string(),
    product_status: z.enum(PDT_STATUSES).meta({ description: "The product's project status (the same on each of its stages)." }),
    notes: z.string(),
    start_date: isoDate.meta({ description: "The quarter's plan (YYYY-MM-DD): stored, or carried over from the latest earlier plan." }),
    end_date: isoDate,
    previous: PlanSchema.nullable().meta({ description: "The plan of the quarter just before (null: none reported)." }),
    slip: z.object({ start: z.number().int().nullable(), end: z.number().int().nullable() }).meta({ description: "Days each date moved since the previous quarter's plan." }),
    history: z.record(z.string(), PlanSchema).meta({ description: "Earlier quarters' plans, by quarter name." }),
  })
  .meta({ id: "PdtRow" });

const PdtTemplate = z
  .object({
    ...frameShape,
    pdt_meta: ReportMetaSchema,
    quarter_order: z
      .array(z.object({ name: z.string(), start_date: z.iso.date(), end_date: z.iso.date() }))
      .meta({ description: "The earlier quarters shown, oldest first, then the quarter itself." }),
    template_data: z.array(PdtRowSchema).meta({ description: "A row per active product and stage of its category, in the grid's order." }),
  })
  .meta({ id: "PdtTemplate" });

function template(view: PdtReportView): z.infer<typeof PdtTemplate> {
  return {
    ...frameAnswer(view),
    pdt_meta: reportMeta(view),
    quarter_order: view.quarterOrder.map((quarter) => ({ name: quarter.name, start_date: quarter.startDate, end_date: quarter.endDate })),
    template_data: view.rows.map((row) => ({
      product_id: row.productId,
      product: row.productName,
      category: row.category,
      stage_id: row.stageId,
      stage: row.stageName,
      product_status: row.status,
      notes: row.notes,
      start_date: row.startDate,
      end_date: row.endDate,
      previous: row.previous ? { start_date: row.previous.startDate, end_date: row.previous.endDate } : null,
      slip: row.slip,
      history: Object.fromEntries(Object.entries(row.history).map(([name, plan]) => [name, { start_date: plan.startDate, end_date: plan.endDate }])),
    })),
  };
}

const cell = z.string().max(PDT_CELL_MAX_CHARS);
const STATUS_CHOICES = PDT_STATUSES.map((status) => `${status} (${PROJECT_STATUS_LABELS[status]})`).join(", ");

const PdtSaveRow = z
  .object({
    product_id: idParam,
    stage_id: idParam,
    status: cell.optional().meta({ description: `The product's new project status, its code or its label: ${STATUS_CHOICES}. Left out or empty: unchanged. Rows of one product must agree.` }),
    notes: cell.meta({ description: "Empty clears the notes." }),
    start_date: cell.meta({ description: "M/D/YYYY, MM/DD/YYYY or YYYY-MM-DD; empty (or a space) clears the date." }),
    end_date: cell.meta({ description: "As start_date; not before it." }),
  })
  .strict()
  .meta({ id: "PdtSaveRow" });

const PdtSaveBody = z
  .object({
    version: z.number().int().min(0).optional().meta({ description: "pdt_meta.version as read (left out: no check)." }),
    rows: z.array(PdtSaveRow).max(PDT_SAVE_MAX_ROWS).meta({ description: "The changed rows, each whole; the others stay as they are (a quarter not yet saved stores the plan carried over)." }),
  })
  .meta({ id: "PdtSaveBody" });

const SAVE_EXAMPLE = {
  version: 2,
  rows: [{ product_id: 3, stage_id: 14, status: "UNDER_DEVELOPMENT", notes: "Pilot batch moved to the new line.", start_date: "4/1/2026", end_date: "6/30/2026" }],
};

/** Answer field names of the grid's columns, for the errors. */
const FIELD: Record<PdtColumnKey, string> = { status: "status", notes: "notes", startDate: "start_date", endDate: "end_date" };

type SaveBody = z.infer<typeof PdtSaveBody>;

/** A save, or a submission that saves first, of the partner's timeline in the quarter asked for. */
async function save({ user, partnerId, quarterName, body, action, comment, requestId }: TemplateSaveInput<SaveBody>) {
  const posted = body.rows.map((row) => ({ productId: row.product_id, stageId: row.stage_id, status: row.status, notes: row.notes, startDate: row.start_date, endDate: row.end_date }));
  const split = splitPdtPostedRows(posted);
  if (!split.ok) throw invalid({ [`rows.${split.index}`]: [PDT_POSTED_REFUSALS[split.reason]] });
  const quarter = await resolveQuarter(quarterName);
  const saved = await savePdtReport({ actor: user, partnerId, quarterId: quarter.id, expectedVersion: body.version, rows: split.rows, statuses: split.statuses, action, comment, requestId });
  if (!saved.ok) {
    // The problems name rows by their place in the grid: answered by the posted row that carried the cell.
    const grid = (await loadPdtReport({ viewer: user, partnerId, quarterName })).rows;
    const errors: Record<string, string[]> = {};
    for (const problem of saved.problems) {
      const row = grid[problem.rowNumber - 1];
      for (const key of problem.keys as PdtColumnKey[]) {
        const index = posted.findIndex((p) => p.productId === row?.productId && (key === "status" ? Boolean(p.status) : p.stageId === row?.stageId));
        (errors[index >= 0 ? `rows.${index}.${FIELD[key]}` : "rows"] ??= []).push(`${PDT_COLUMN_LABELS[key]}: please input a valid entry.`);
      }
    }
    throw invalid(errors);
  }
  return reportSavedAnswer(action, saved);
}

export const PDT_CALLS: ApiCall[] = reportTemplateCalls({
  type: "pdt",
  tag: TAG,
  template: PdtTemplate,
  load: async (input) => template(await loadPdtReport(input)),
  saveBody: PdtSaveBody,
  emptySave: (version) => ({ version, rows: [] }),
  maxBodyBytes: 8 * 1024 * 1024,
  saved: ReportSavedSchema,
  save,
  summaries: {
    save: "Saves the caller's changed rows and product statuses. Nothing is saved when a cell is invalid.",
    adminSave: "An administrator saves a partner's rows (any quarter, with ?quarter=).",
    submit: "Submits the caller's timeline of the open quarter to the administrators, with a comment (a quarter never saved is submitted as carried over).",
  },
  examples: { save: SAVE_EXAMPLE, submit: { message: "Timeline updated for the quarter.", version: 2 } },
});
