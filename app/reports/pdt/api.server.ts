/**
 * The Development Timeline (PDT) by machine: read, save, submit, decide, read messages.
 * `/template/pdt/` is the signed-in partner's own report, `/template/pdt/{partnerId}/` a partner's
 * report as an administrator sees it; `?quarter=` picks an earlier quarter. The rules are the PDT
 * screen's: loadPdtReport, splitPdtPostedRows and savePdtReport, decideReport, markReportMessagesRead.
 */
import * as z from "zod";
import { loadPdtReport, PDT_POSTED_REFUSALS, savePdtReport, splitPdtPostedRows, type PdtReportView } from "~/reports/pdt/model.server";
import { partnerActiveProducts } from "~/reports/sales/product-verification.server";
import { resolveQuarter } from "~/reports/frame/screen.server";
import { PDT_CELL_MAX_CHARS, PDT_SAVE_MAX_ROWS } from "~/reports/pdt/contract";
import { PDT_COLUMN_LABELS, PDT_STATUSES, type PdtColumnKey } from "~/reports/pdt/rows";
import { PROJECT_STATUS_LABELS } from "~/utils/project-status";
import { idParam, invalid, type ApiCall } from "~/api/call.server";
import {
  frameAnswer,
  frameShape,
  ReportMetaSchema,
  reportChangesCalls,
  reportMeta,
  reportTemplateCalls,
  reportThreadsCalls,
  type TemplateSaveInput,
} from "~/reports/frame/api.server";

/** A row's keys of a quarter's plan, such as `start_date_Q3 2026`. */
const planKeys = (quarterName: string) => ({ startDate: `start_date_${quarterName}`, endDate: `end_date_${quarterName}` });
const PLAN_KEY = /^(start|end)_date_/;

const PdtRowSchema = z
  .object({
    product: z.string(),
    stage: z.string(),
    stage_id: z.number().int(),
    editable: z.boolean().meta({ description: "Whether the caller may change the row's status, notes and dates now." }),
    product_status: z.enum(PDT_STATUSES).meta({ description: "The product's project status (the same on each of its stages)." }),
    notes: z.string(),
    product_id: z.number().int(),
    category: z.enum(["API", "FDF"]),
    slip: z
      .object({ start: z.number().int().nullable(), end: z.number().int().nullable() })
      .meta({ description: "Days each date moved since the previous quarter's plan." }),
  })
  .catchall(z.iso.date().nullable())
  .meta({
    id: "PdtRow",
    description:
      "Also, for each quarter q of quarter_order, `start_date_<q>` and `end_date_<q>` (YYYY-MM-DD or null), such as `start_date_Q3 2026`: the last quarter's are the report's own plan (stored, or carried over from the latest earlier plan), the earlier ones its history.",
  });

const PdtTemplate = z
  .object({
    rows: z.array(PdtRowSchema).meta({ description: "A row per active product and stage of its category, in the grid's order." }),
    quarter_order: z.array(z.string()).meta({ description: "The quarters of the rows' dates, oldest first, the report's own quarter last." }),
    pdt_meta: ReportMetaSchema,
    ...frameShape,
  })
  .meta({ id: "PdtTemplate" });

function template(view: PdtReportView): z.infer<typeof PdtTemplate> {
  return {
    rows: view.rows.map((row) => {
      const plans = { ...row.history, [view.quarter.name]: { startDate: row.startDate, endDate: row.endDate } };
      const dates = view.quarterOrder.flatMap(({ name }) => {
        const keys = planKeys(name);
        return [
          [keys.startDate, plans[name]?.startDate ?? null],
          [keys.endDate, plans[name]?.endDate ?? null],
        ];
      });
      return {
        product: row.productName,
        stage: row.stageName,
        stage_id: row.stageId,
        editable: view.canEditRows,
        product_status: row.status,
        notes: row.notes,
        ...Object.fromEntries(dates),
        product_id: row.productId,
        category: row.category,
        slip: row.slip,
      };
    }),
    quarter_order: view.quarterOrder.map((quarter) => quarter.name),
    pdt_meta: reportMeta(view),
    ...frameAnswer(view),
  };
}

const cell = z.string().max(PDT_CELL_MAX_CHARS);
const STATUS_CHOICES = PDT_STATUSES.map((status) => `${status} (${PROJECT_STATUS_LABELS[status]})`).join(", ");
const ignored = z.unknown().optional().meta({ description: "As read; ignored." });

const PdtSaveRowFields = {
  product_id: idParam.optional().meta({ description: "The product; left out: the partner's product named by `product`." }),
  product: cell.optional().meta({ description: "The product's name, read when product_id is left out." }),
  stage_id: idParam,
  product_status: cell.nullish().meta({
    description: `The product's new project status, its code or its label: ${STATUS_CHOICES}. Left out or empty: unchanged. Rows of one product must agree.`,
  }),
  notes: cell.nullable().meta({ description: "Empty or null clears the notes." }),
  stage: ignored,
  editable: ignored,
  category: ignored,
  slip: ignored,
};

const PdtSaveRow = z
  .object(PdtSaveRowFields)
  .catchall(cell.nullable())
  .superRefine((row, context) => {
    for (const key of Object.keys(row)) {
      if (!(key in PdtSaveRowFields) && !PLAN_KEY.test(key)) context.addIssue({ code: "custom", path: [key], message: "Unknown field." });
    }
  })
  .meta({
    id: "PdtSaveRow",
    description:
      "A row as read. Saved are the dates of the report's quarter, `start_date_<quarter>` and `end_date_<quarter>` (both required): M/D/YYYY, MM/DD/YYYY or YYYY-MM-DD, null or empty (or a space) to clear, the end not before the start. Other quarters' dates are history: ignored.",
  });

const PdtSaveBody = z
  .object({
    version: z.number().int().min(0).optional().meta({ description: "pdt_meta.version as read (left out: pdt_meta's if posted, else no check)." }),
    rows: z
      .array(PdtSaveRow)
      .max(PDT_SAVE_MAX_ROWS)
      .meta({ description: "The changed rows, or all of them as read; the others stay as they are (a quarter not yet saved stores the plan carried over)." }),
    pdt_meta: z
      .object({ partner_id: z.number().int(), quarter_name: z.string().max(20), version: z.number().int().min(0) })
      .partial()
      .optional()
      .meta({ description: "As read: it must be this report's; its other fields are ignored." }),
    quarter_order: ignored,
    ...(Object.fromEntries(Object.keys(frameShape).map((key) => [key, ignored])) as Record<keyof typeof frameShape, typeof ignored>),
  })
  .meta({ id: "PdtSaveBody", description: "Rows to save; the whole answer of the GET posted back is accepted too." });

const SAVE_EXAMPLE = {
  version: 2,
  rows: [
    {
      product_id: 3,
      stage_id: 14,
      product_status: "UNDER_DEVELOPMENT",
      notes: "Pilot batch moved to the new line.",
      "start_date_Q2 2026": "4/1/2026",
      "end_date_Q2 2026": "6/30/2026",
    },
  ],
};

type SaveBody = z.infer<typeof PdtSaveBody>;

const nameKey = (name: string) => name.trim().toLowerCase();

/** Each posted row's product: its product_id, else its name's among the partner's products (null: none). */
async function postedProductIds(partnerId: number, rows: SaveBody["rows"]): Promise<(number | null)[]> {
  const byName = rows.every((row) => row.product_id)
    ? new Map<string, number>()
    : new Map((await partnerActiveProducts(partnerId)).map((product) => [nameKey(product.name), product.id]));
  return rows.map((row) => row.product_id ?? byName.get(nameKey(row.product ?? "")) ?? null);
}

/** A save, or a submission that saves first, of the partner's timeline in the quarter asked for. */
async function save({ user, partnerId, quarterName, body, action, comment, requestId }: TemplateSaveInput<SaveBody>) {
  const quarter = await resolveQuarter(quarterName);
  const meta = body.pdt_meta;
  const errors: Record<string, string[]> = {};
  // An answer read of another report would overwrite this one with its rows.
  if (meta?.partner_id !== undefined && meta.partner_id !== partnerId) errors["pdt_meta.partner_id"] = ["This is another partner's timeline."];
  if (meta?.quarter_name !== undefined && meta.quarter_name !== quarter.name)
    errors["pdt_meta.quarter_name"] = [`This is the timeline of ${meta.quarter_name}: save it with ?quarter=${meta.quarter_name}.`];

  const keys = planKeys(quarter.name);
  const productIds = await postedProductIds(partnerId, body.rows);
  const posted = body.rows.map((row, index) => {
    if (productIds[index] === null) errors[`rows.${index}.product`] = [row.product ? "Not a product of this partner." : "Send product_id or product."];
    for (const key of [keys.startDate, keys.endDate]) if (!(key in row)) errors[`rows.${index}.${key}`] = [`Required: the plan of ${quarter.name}.`];
    return {
      productId: productIds[index] ?? 0,
      stageId: row.stage_id,
      status: row.product_status,
      notes: row.notes ?? "",
      startDate: row[keys.startDate] ?? "",
      endDate: row[keys.endDate] ?? "",
    };
  });
  if (Object.keys(errors).length) throw invalid(errors);

  const split = splitPdtPostedRows(posted);
  if (!split.ok) throw invalid({ [`rows.${split.index}`]: [PDT_POSTED_REFUSALS[split.reason]] });
  const expectedVersion = body.version ?? meta?.version;
  const saved = await savePdtReport({
    actor: user,
    partnerId,
    quarterId: quarter.id,
    expectedVersion,
    rows: split.rows,
    statuses: split.statuses,
    action,
    comment,
    requestId,
  });
  if (!saved.ok) {
    // The problems name rows by their place in the grid: answered by the posted row that carried the cell.
    const field: Record<PdtColumnKey, string> = { status: "product_status", notes: "notes", ...keys };
    const grid = (await loadPdtReport({ viewer: user, partnerId, quarterName })).rows;
    for (const problem of saved.problems) {
      const row = grid[problem.rowNumber - 1];
      for (const key of problem.keys as PdtColumnKey[]) {
        const index = posted.findIndex((p) => p.productId === row?.productId && (key === "status" ? Boolean(p.status) : p.stageId === row?.stageId));
        (errors[index >= 0 ? `rows.${index}.${field[key]}` : "rows"] ??= []).push(`${PDT_COLUMN_LABELS[key]}: please input a valid entry.`);
      }
    }
    throw invalid(errors);
  }
  return saved;
}

export const PDT_CALLS: ApiCall[] = [
  ...reportTemplateCalls({
    type: "pdt",
    template: PdtTemplate,
    load: loadPdtReport,
    answer: template,
    saveBody: PdtSaveBody,
    emptySave: (version) => ({ version, rows: [] }),
    // The largest timeline's answer posted back whole: about 500 bytes a row with its quarters' dates.
    maxBodyBytes: 16 * 1024 * 1024,
    save,
    summaries: {
      save: "Saves the caller's changed rows and product statuses. Nothing is saved when a cell is invalid.",
      adminSave: "An administrator saves a partner's rows (any quarter, with ?quarter=).",
      submit: "Submits the caller's timeline of the open quarter to the administrators, with a comment (a quarter never saved is submitted as carried over).",
    },
    examples: { save: SAVE_EXAMPLE, submit: { message: "Timeline updated for the quarter.", version: 2 } },
  }),
  ...reportThreadsCalls("pdt", { table: "PDT", column: "endDate", body: "The end date moved by two quarters: what held it up?" }),
  ...reportChangesCalls("pdt"),
];
