/**
 * The Sales Report by machine, a tab at a time (`{x}`: api or fdf), its rows in spec §3's fields:
 * `/template/sales/{x}` is the signed-in partner's own report, `/template/sales/{x}/{y}` partner
 * y's as the administrators see it; `?quarter=` picks an earlier quarter. The rules are the Sales
 * Report screen's: loadSalesReport, saveSalesReport, decideReport and markReportMessagesRead.
 */
import * as z from "zod";
import { listCountries } from "~/models/partner.server";
import { partnerActiveProducts } from "~/reports/sales/product-verification.server";
import { loadReportFrame, resolveQuarter } from "~/reports/frame/screen.server";
import { loadSalesReport, rowsOfOtherKind, saveMessage, saveSalesReport } from "~/reports/sales/model.server";
import type { AuthUser } from "~/models/user.server";
import { REPORT_SUBMITTED } from "~/reports/frame/contract";
import { SALES_SPEC_FIELD, SAVE_MAX_ROWS } from "~/reports/sales/contract";
import { NOT_AUTHORIZED } from "~/utils/messages";
import { canonicalName } from "~/reports/sales/rows";
import { columnLabel, columnsFor, SALES_KINDS, type SalesColumn, type SalesColumnKey, type SalesKind, type SalesRowInput } from "~/reports/sales/columns";
import { ADMIN_AND_STAFF, ApiError, idParam, invalid, notFound, QuarterQuery, signedInCall, type ApiCall } from "~/api/call.server";
import {
  frameAnswer,
  frameShape,
  ownAndPartnerCalls,
  ReportMetaSchema,
  reportChangesCalls,
  reportChecksCalls,
  reportMeta,
  reportThreadsCalls,
  reportWorkflowCalls,
} from "~/reports/frame/api.server";
import { REPORT_REGISTRY } from "~/reports/frame/registry";
import { royaltyStatement } from "./royalty-statement.server";

const TAG = REPORT_REGISTRY.sales.labels.title;

type IdField = "country_id" | "product_id";

/** The ids spec §3 puts beside the names. */
const ID_FIELD: Partial<Record<SalesColumnKey, { field: IdField; description: string; unknown: (kind: SalesKind) => string }>> = {
  country: { field: "country_id", description: "The country's id (null: the name is no known country).", unknown: () => "No such country." },
  productName: {
    field: "product_id",
    description: "The partner's product of the tab's category (null: a name awaiting verification).",
    unknown: (kind) => `Not one of the partner's ${kind} products.`,
  },
};

/** A tab's row fields in the spec's order: each column's, with the id beside its name. */
function rowShape<Cell extends z.ZodType, Id extends z.ZodType>(kind: SalesKind, cell: (column: SalesColumn) => Cell, id: (description: string) => Id) {
  return Object.fromEntries(
    columnsFor(kind).flatMap((column) => {
      const beside = ID_FIELD[column.key];
      return [[SALES_SPEC_FIELD[column.key], cell(column)], ...(beside ? [[beside.field, id(beside.description)]] : [])];
    }),
  ) as Record<string, Cell | Id>;
}

function answerRow(kind: SalesKind) {
  return z
    .object({
      sales_report_id: z.number().int().meta({ description: "The saved row's id." }),
      ...rowShape(
        kind,
        (column) => z.string().meta({ description: column.label }),
        (description) => z.number().int().nullable().meta({ description }),
      ),
    })
    .meta({ id: `Sales${kind}Row` });
}

const ROW = { API: answerRow("API"), FDF: answerRow("FDF") };

const SalesTemplate = z
  .object({
    ...frameShape,
    sales_meta: ReportMetaSchema,
    pending_product_count: z.number().int().meta({ description: "Product names of the report awaiting the administrators' verification." }),
    country_order: z
      .array(z.object({ country_id: z.number().int(), country_name: z.string() }))
      .meta({ description: "The countries a row may name, in the grid's order." }),
    product_order: z
      .array(z.object({ product_id: z.number().int(), product_name: z.string() }))
      .meta({ description: "The partner's active products of the tab's category; a row naming another product asks for its verification." }),
    rows: z.array(z.union([ROW.API, ROW.FDF])).meta({
      description: "The tab's saved rows in the grid's order, cells as the grid shows them: texts, the month's name, numbers as plain decimals; empty: \"\".",
    }),
  })
  .meta({ id: "SalesTemplate" });

const tabProducts = async (partnerId: number, kind: SalesKind) => (await partnerActiveProducts(partnerId)).filter((product) => product.category === kind);

async function loadTab(viewer: AuthUser, kind: SalesKind, partnerId: number, quarterName: string | undefined): Promise<z.infer<typeof SalesTemplate>> {
  // The report first: it refuses a viewer who may not see the partner's data before anything else is read.
  const view = await loadSalesReport({ viewer, partnerId, quarterName });
  const [countries, products] = await Promise.all([listCountries(), tabProducts(partnerId, kind)]);
  const ids: Record<IdField, Map<string, number>> = {
    country_id: new Map(countries.map((country) => [country.name, country.id])),
    product_id: new Map(products.map((product) => [product.name, product.id])),
  };
  return {
    ...frameAnswer(view),
    sales_meta: reportMeta(view),
    pending_product_count: view.pendingProductCount,
    country_order: countries.map((country) => ({ country_id: country.id, country_name: country.name })),
    product_order: products.map((product) => ({ product_id: product.id, product_name: product.name })),
    rows: view.rows[kind].map((row) => {
      const answer: Record<string, string | number | null> = { sales_report_id: row.id! };
      for (const column of columnsFor(kind)) {
        const value = (row as Record<string, string>)[column.key];
        answer[SALES_SPEC_FIELD[column.key]] = value;
        const beside = ID_FIELD[column.key];
        if (beside) answer[beside.field] = ids[beside.field].get(value) ?? null;
      }
      return answer as z.infer<typeof SalesTemplate>["rows"][number];
    }),
  };
}

const saveCell = z
  .union([z.string().max(4000), z.number()])
  .nullable()
  .optional();
const SaveRow = z
  .object({
    sales_report_id: idParam
      .nullable()
      .optional()
      .meta({ description: "A saved row's id: the row is changed (emptied: deleted); without it the row is added." }),
    ...rowShape(
      "FDF",
      (column) => saveCell.meta({ description: column.label }),
      (description) =>
        idParam
          .nullable()
          .optional()
          .meta({ description: `${description} Fills the name when the name is left out; with a name, must be the name's.` }),
    ),
  })
  .strict()
  .meta({ id: "SalesSaveRow", description: `A row of the tab in spec §3's fields. The API tab's: ${Object.keys(ROW.API.shape).join(", ")}.` });
/** A posted row by field name (the schema has checked each field's type). */
type PostedRow = Record<string, z.infer<typeof saveCell>>;

const ignored = z.unknown().optional().meta({ description: "Part of the read answer, which may be posted back: ignored." });

const SaveBody = z
  .object({
    partner_id: idParam.optional().meta({ description: "Whose report: an administrator's must be the path's partner, a partner's its own." }),
    version: z.number().int().min(0).optional().meta({ description: "sales_meta.version as read (left out: sales_meta's if sent, else no check)." }),
    sales_report_id: z.array(idParam).max(SAVE_MAX_ROWS).default([]).meta({ description: "Saved rows of the tab to delete." }),
    rows: z
      .array(SaveRow)
      .max(SAVE_MAX_ROWS)
      .default([])
      .meta({ description: "Changed and new rows of the tab; rows not sent, and the other tab's, stay as they are." }),
    sales_meta: z
      .object({ version: z.number().int().min(0).optional() })
      .loose()
      .optional()
      .meta({ description: "As read: its version is the save's when `version` is left out; the rest is ignored." }),
    country_order: ignored,
    product_order: ignored,
    pending_product_count: ignored,
    quarter_dropdown: ignored,
    quarter_editable: ignored,
    unread_message_count: ignored,
    messages: ignored,
  })
  .meta({ id: "SalesSaveBody" });
type SaveBody = z.infer<typeof SaveBody>;

const Saved = z
  .object({
    status: z.literal("OK"),
    detail: z.string().meta({ example: "Data successfully recorded. Total Rows: 12, Newly Added Rows: 2" }),
    report_id: z.number().int(),
    version: z.number().int(),
    warnings: z
      .array(z.object({ row: z.number().int().meta({ description: "The row's index in `rows`." }), field: z.string(), expected: z.string() }))
      .meta({ description: "Entered FDF values more than 1 % away from the derived ones (saved all the same)." }),
  })
  .meta({ id: "SalesSaved" });

const SAVE_EXAMPLE = {
  version: 3,
  sales_report_id: [],
  rows: [
    {
      year: "2026",
      month: "October",
      country_name: "Kenya",
      purchaser: "Nairobi Pharma Ltd",
      product_name: "Dolutegravir",
      quantity: "120",
      total_value: "5000",
    },
  ],
};

/**
 * The posted rows with the model's keys. A name left out is filled from its id; an id must be a
 * known one and name the name sent (a client that changed one of the two is refused, not guessed at).
 */
async function modelRows(kind: SalesKind, partnerId: number, posted: PostedRow[]): Promise<SalesRowInput[]> {
  const fields = new Set(Object.keys(ROW[kind].shape));
  const [countries, products] = await Promise.all([
    posted.some((row) => row.country_id != null) ? listCountries() : [],
    posted.some((row) => row.product_id != null) ? tabProducts(partnerId, kind) : [],
  ]);
  const named: Record<IdField, { byId: Map<number, string>; names: string[] }> = {
    country_id: { byId: new Map(countries.map((country) => [country.id, country.name])), names: countries.map((country) => country.name) },
    product_id: { byId: new Map(products.map((product) => [product.id, product.name])), names: products.map((product) => product.name) },
  };
  const errors: Record<string, string[]> = {};
  const rows = posted.map((row, index) => {
    const refuse = (field: string, message: string) => (errors[`rows.${index}.${field}`] ??= []).push(message);
    for (const field of Object.keys(row)) if (!fields.has(field)) refuse(field, `Not a field of the ${kind} tab.`);
    const cells: Record<string, string | number | null> = { id: row.sales_report_id ?? null };
    for (const column of columnsFor(kind)) {
      const value = row[SALES_SPEC_FIELD[column.key]];
      cells[column.key] = value == null ? null : String(value);
      const beside = ID_FIELD[column.key];
      const id = beside ? row[beside.field] : null;
      if (!beside || id == null) continue;
      const { byId, names } = named[beside.field];
      const name = byId.get(id as number);
      if (name === undefined) refuse(beside.field, beside.unknown(kind));
      else if (!String(cells[column.key] ?? "").trim()) cells[column.key] = name;
      else if (canonicalName(names, String(cells[column.key])) !== name) refuse(beside.field, `Not the id of the ${SALES_SPEC_FIELD[column.key]} sent.`);
    }
    return cells as SalesRowInput;
  });
  if (Object.keys(errors).length) throw invalid(errors);
  return rows;
}

/** Ids to delete may not be the other tab's rows, which the model would delete as any of the report's. */
async function refuseOtherTabRows(viewer: AuthUser, kind: SalesKind, partnerId: number, quarterName: string | undefined, ids: number[]) {
  const other = kind === "API" ? "FDF" : "API";
  const otherIds = await rowsOfOtherKind({ viewer, partnerId, quarterName, kind, ids });
  const refused = ids.flatMap((id, index) => (otherIds.has(id) ? [[`sales_report_id.${index}`, [`A row of the ${other} tab.`]]] : []));
  if (refused.length) throw invalid(Object.fromEntries(refused));
}

/** A save of a tab's rows, or a submission (no rows) that saves first; the model checks who may. */
async function save(input: {
  user: AuthUser;
  partnerId: number;
  quarterName: string | undefined;
  version: number | undefined;
  rows: Partial<Record<SalesKind, SalesRowInput[]>>;
  deletedIds: number[];
  action: "save" | "submit";
  comment: string | null;
  requestId: string;
}): Promise<z.infer<typeof Saved>> {
  const quarter = await resolveQuarter(input.quarterName);
  const saved = await saveSalesReport({
    actor: input.user,
    partnerId: input.partnerId,
    quarterId: quarter.id,
    expectedVersion: input.version,
    api: input.rows.API ?? [],
    fdf: input.rows.FDF ?? [],
    deletedIds: input.deletedIds,
    action: input.action,
    comment: input.comment,
    requestId: input.requestId,
  });
  if (!saved.ok) {
    // One tab's rows are sent: a problem's row number is the place in `rows`.
    const errors = SALES_KINDS.flatMap((kind) =>
      saved.problems[kind].flatMap((problem) =>
        problem.keys.map((key) => [`rows.${problem.rowNumber - 1}.${SALES_SPEC_FIELD[key]}`, [`${columnLabel(kind, key)}: please input a valid entry.`]]),
      ),
    );
    throw invalid(Object.fromEntries(errors));
  }
  return Saved.parse({
    status: "OK",
    detail: input.action === "submit" ? REPORT_SUBMITTED : saveMessage(saved.counts).text,
    report_id: saved.reportId,
    version: saved.version,
    warnings: SALES_KINDS.flatMap((kind) =>
      saved.warnings[kind].map((warning) => ({ row: warning.rowNumber - 1, field: SALES_SPEC_FIELD[warning.column], expected: warning.expected })),
    ),
  });
}

async function saveTab(user: AuthUser, kind: SalesKind, partnerId: number, quarterName: string | undefined, body: SaveBody, requestId: string) {
  const rows = await modelRows(kind, partnerId, body.rows);
  if (body.sales_report_id.length) await refuseOtherTabRows(user, kind, partnerId, quarterName, body.sales_report_id);
  const version = body.version ?? body.sales_meta?.version;
  return save({ user, partnerId, quarterName, version, rows: { [kind]: rows }, deletedIds: body.sales_report_id, action: "save", comment: null, requestId });
}

const TabParams = z.object({ x: z.enum(["api", "fdf"]).meta({ description: "The tab: api or fdf." }) });
const TabPartnerParams = TabParams.extend({ y: idParam.meta({ description: "The partner's id." }) });
const kindOf = (x: "api" | "fdf"): SalesKind => (x === "api" ? "API" : "FDF");
const SAVE_MAX_BODY_BYTES = 32 * 1024 * 1024;

/** A tab of the caller's own report (`own`, a partner) or of partner y's (administrators). */
const tabOf = (own: boolean) => (own ? { path: "/template/sales/{x}", params: TabParams } : { path: "/template/sales/{x}/{y}", params: TabPartnerParams });
const partnerOfTab = (user: AuthUser, params: z.infer<typeof TabParams> | z.infer<typeof TabPartnerParams>) => ("y" in params ? params.y : user.partnerId!);

const readTabCall = (own: boolean, summary: string) =>
  signedInCall({
    method: "GET",
    ...tabOf(own),
    summary,
    tag: TAG,
    access: own ? ["PARTNER"] : ADMIN_AND_STAFF,
    query: QuarterQuery,
    answer: SalesTemplate,
    errors: [400, 404],
    handle: ({ user, params, query }) => loadTab(user, kindOf(params.x), partnerOfTab(user, params), query.quarter),
  });

const saveTabCall = (own: boolean, summary: string) =>
  signedInCall({
    method: "POST",
    ...tabOf(own),
    summary,
    tag: TAG,
    access: own ? ["PARTNER"] : ["ADMIN"],
    query: QuarterQuery,
    body: SaveBody,
    maxBodyBytes: SAVE_MAX_BODY_BYTES,
    answer: Saved,
    errors: [400, 404, 409],
    example: { body: SAVE_EXAMPLE },
    handle: ({ user, params, query, body, context }) => {
      const partnerId = partnerOfTab(user, params);
      // A partner naming another partner is refused as on the page; an administrator's body must name the partner of the path.
      if (body.partner_id !== undefined && body.partner_id !== partnerId)
        throw own ? new ApiError(403, { status: "forbidden", detail: NOT_AUTHORIZED }) : invalid({ partner_id: ["Must be the partner of the path."] });
      return saveTab(user, kindOf(params.x), partnerId, query.quarter, body, context.requestId);
    },
  });

const reportedFigures = {
  net_value: z.string().meta({ description: "Total Net Sales Value (USD), a decimal." }),
  reported: z.string().meta({ description: "Royalty Due as reported, a decimal." }),
};
const expectedFigures = {
  expected: z.string().nullable().meta({ description: "Royalty Due by the licence terms (net value × rate, to the cent per row); null: no rate." }),
  difference: z.string().nullable().meta({ description: "Reported minus expected, over the rows with a licence rate; null: no rate." }),
};

const RoyaltyStatementSchema = z
  .object({
    partner: z.object({ id: z.number().int(), name: z.string() }),
    quarter: z.string(),
    lines: z.array(
      z.object({
        product: z.string(),
        country: z.string().nullable().meta({ description: "null: rows without a country." }),
        ...reportedFigures,
        rate: z
          .string()
          .nullable()
          .meta({ description: "The licence's rate in percent: the country's, else the default; null outside the territory or without licence terms." }),
        ...expectedFigures,
      }),
    ),
    totals: z.object({ ...reportedFigures, ...expectedFigures }).meta({ description: "The sums; expected and difference over the lines with a rate." }),
  })
  .meta({ id: "RoyaltyStatement" });

/**
 * GET /template/sales/royalty_statement/ (a partner's own) and /template/sales/royalty_statement/{partnerId}/
 * (administrators): the royalty statement of the admin's Sales Report screen, by product and country.
 */
const ROYALTY_STATEMENT_CALLS = ownAndPartnerCalls({
  method: "GET",
  path: "/template/sales/royalty_statement/",
  summaries: {
    own: "The royalty statement of the caller's own Sales Report of the open quarter (or ?quarter=): reported against the licence terms by product and country.",
    partner: "A partner's royalty statement of the quarter: reported against the licence terms by product and country, with the differences.",
  },
  tag: TAG,
  query: QuarterQuery,
  answer: RoyaltyStatementSchema,
  errors: [400, 404],
  async handle({ user, partnerId, query }) {
    const frame = await loadReportFrame({ viewer: user, partnerId, quarterName: query.quarter, type: "sales" });
    if (!frame.report.id) throw notFound(`No Sales Report of ${frame.quarter.name}.`);
    const { lines, totals } = await royaltyStatement(frame.report.id, partnerId);
    return {
      partner: { id: frame.partner.id, name: frame.partner.companyName },
      quarter: frame.quarter.name,
      lines: lines.map((line) => ({
        product: line.product,
        country: line.country,
        net_value: line.netValue,
        reported: line.reported,
        rate: line.rate,
        expected: line.expected,
        difference: line.difference,
      })),
      totals: { net_value: totals.netValue, reported: totals.reported, expected: totals.expected, difference: totals.difference },
    };
  },
});

export const SALES_CALLS: ApiCall[] = [
  readTabCall(true, "A tab of the caller's own Sales Report of the open quarter (or ?quarter=)."),
  readTabCall(false, "A tab of partner y's Sales Report, as the administrators see it."),
  saveTabCall(true, "Saves the caller's rows of a tab: changed and new rows, and the ids of saved rows to delete. Nothing is saved when a row is invalid."),
  saveTabCall(false, "An administrator saves a tab of partner y's rows."),
  ...reportWorkflowCalls({
    type: "sales",
    saved: Saved,
    submit: ({ user, partnerId, version, comment, requestId }) =>
      save({ user, partnerId, quarterName: undefined, version, rows: {}, deletedIds: [], action: "submit", comment, requestId }),
    summary: "Submits the caller's report of the open quarter to the administrators, with a comment.",
    example: { message: "Q4 sales as agreed.", version: 4 },
  }),
  ...reportChecksCalls("sales"),
  ...reportThreadsCalls("sales", { table: "FDF", column: "royaltyDue", body: "Royalty Due is not 5% of the net value." }),
  ...reportChangesCalls("sales"),
  ...ROYALTY_STATEMENT_CALLS,
];
