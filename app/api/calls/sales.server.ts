/**
 * The Sales Report by machine: read, save, submit, decide, read messages. `/template/sales/` is
 * the signed-in partner's own report, `/template/sales/{partnerId}/` a partner's report as an
 * administrator sees it; `?quarter=` picks an earlier quarter. The rules are the Sales Report
 * screen's: saveSalesReport, decideReport and markReportMessagesRead.
 */
import { z } from "zod";
import { decideReport, markReportMessagesRead } from "~/models/report-screen.server";
import { loadSalesReport, saveMessage, saveSalesReport, type SalesReportView } from "~/models/sales-report.server";
import type { AuthUser } from "~/models/user.server";
import { REPORT_STATES } from "~/utils/reports";
import { columnsFor, SALES_KINDS, type SalesKind } from "~/utils/sales-rows";
import { SAVE_MAX_ROWS } from "~/reports/sales/contract";
import { ADMIN_AND_STAFF, ALL_ROLES, ApiError, idParam, QuarterQuery, signedInCall } from "../call.server";

const TAG = "Sales Report";
const PartnerParams = z.object({ partnerId: idParam });

const cell = z.union([z.string().max(4000), z.number()]).optional();
function rowSchema(kind: SalesKind) {
  const cells = Object.fromEntries(columnsFor(kind).map((column) => [column.key, cell.meta({ description: column.label })]));
  return z.object({ id: idParam.optional().meta({ description: "A saved row's id (sales_report_id): the row is changed; without it the row is added." }), ...cells }).strict();
}
const RowsByKind = z.object({ API: z.array(z.record(z.string(), z.union([z.string(), z.number(), z.null()]))), FDF: z.array(z.record(z.string(), z.union([z.string(), z.number(), z.null()]))) });

const QuarterOption = z.object({ id: z.number().int(), name: z.string(), historic: z.boolean() });

const SalesTemplate = z
  .object({
    partner_id: z.number().int(),
    company_name: z.string(),
    quarter: z.string(),
    quarter_dropdown: z.array(QuarterOption),
    unread_message_count: z.number().int(),
    sales_meta: z.object({
      report_id: z.number().int().nullable(),
      status: z.enum(REPORT_STATES).nullable().meta({ description: "null: not started." }),
      version: z.number().int().meta({ description: "Send it back with a save: a save over a newer version is refused (409)." }),
      submitted_at: z.iso.datetime().nullable(),
      decided_at: z.iso.datetime().nullable(),
      is_late: z.boolean(),
      can_edit: z.boolean(),
    }),
    template_data: RowsByKind.meta({ description: "The saved rows by table, each with its id." }),
    messages: z.array(
      z.object({ from: z.enum(["partner", "admin"]), author: z.string().nullable(), message: z.string(), is_approved: z.boolean().nullable(), at: z.iso.datetime() }),
    ),
  })
  .meta({ id: "SalesTemplate" });

function template(view: SalesReportView): z.infer<typeof SalesTemplate> {
  return {
    partner_id: view.partner.id,
    company_name: view.partner.companyName,
    quarter: view.quarter.name,
    quarter_dropdown: view.quarterDropdown,
    unread_message_count: view.unreadMessageCount,
    sales_meta: {
      report_id: view.report.id,
      status: view.report.status,
      version: view.report.version,
      submitted_at: view.report.submittedAt?.toISOString() ?? null,
      decided_at: view.report.decidedAt?.toISOString() ?? null,
      is_late: view.report.isLate,
      can_edit: view.canEditRows,
    },
    template_data: view.rows as unknown as z.infer<typeof RowsByKind>,
    messages: view.messages.map((message) => ({
      from: message.isPartnerMessage ? "partner" : "admin",
      author: message.author,
      message: message.message,
      is_approved: message.isApproved,
      at: message.createdAt.toISOString(),
    })),
  };
}

const SaveBody = z
  .object({
    version: z.number().int().min(0).meta({ description: "sales_meta.version as read." }),
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

/** A save, or a submission that saves first, of the partner's report in the quarter asked for. */
async function save({ user, partnerId, quarterName, body, action, comment, requestId }: {
  user: AuthUser;
  partnerId: number;
  quarterName: string | undefined;
  body: z.infer<typeof SaveBody>;
  action: "save" | "submit";
  comment: string | null;
  requestId: string;
}) {
  const view = await loadSalesReport({ viewer: user, partnerId, quarterName });
  const saved = await saveSalesReport({
    actor: user,
    partnerId,
    quarterId: view.quarter.id,
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
    throw new ApiError(400, { status: "invalid", detail: "Invalid data!", errors });
  }
  return Saved.parse({
    status: "OK",
    detail: action === "submit" ? "Report has been submitted to the admin!" : saveMessage(saved.counts).text,
    report_id: saved.reportId,
    version: saved.version,
    warnings: saved.warnings.FDF.map((warning) => ({ row: warning.rowNumber - 1, column: warning.label, expected: warning.expected })),
  });
}

const SubmitBody = z.object({ message: z.string().max(2000).meta({ description: "The comment for the administrator (required)." }), version: z.number().int().min(0) });
const DecisionBody = z.object({
  partner_id: idParam,
  message: z.string().max(2000).meta({ description: "The comment for the partner (required)." }),
  is_approved: z.boolean(),
});
const Done = z.object({ status: z.literal("OK"), detail: z.string(), unread_message_count: z.number().int().optional() });
const InboxParams = z.object({ who: z.enum(["admin", "partner"]) });
const InboxBody = z.object({ partner_id: idParam.optional() });

const readOwn = (user: AuthUser) => user.partnerId!;

export const SALES_CALLS = [
  signedInCall({
    method: "GET",
    path: "/template/sales/",
    summary: "The caller's own Sales Report of the open quarter (or ?quarter=).",
    tag: TAG,
    access: ["PARTNER"],
    query: QuarterQuery,
    answer: SalesTemplate,
    errors: [400, 404],
    handle: async ({ user, query }) => template(await loadSalesReport({ viewer: user, partnerId: readOwn(user), quarterName: query.quarter })),
  }),
  signedInCall({
    method: "GET",
    path: "/template/sales/{partnerId}/",
    summary: "A partner's Sales Report, as the administrators see it.",
    tag: TAG,
    access: ADMIN_AND_STAFF,
    params: PartnerParams,
    query: QuarterQuery,
    answer: SalesTemplate,
    errors: [400, 404],
    handle: async ({ user, params, query }) => template(await loadSalesReport({ viewer: user, partnerId: params.partnerId, quarterName: query.quarter })),
  }),
  signedInCall({
    method: "POST",
    path: "/template/sales/",
    summary: "Saves the caller's rows: changed and new rows, and the ids of saved rows to delete. Nothing is saved when a row is invalid.",
    tag: TAG,
    access: ["PARTNER"],
    query: QuarterQuery,
    body: SaveBody,
    maxBodyBytes: 32 * 1024 * 1024,
    answer: Saved,
    errors: [400, 404, 409],
    example: { body: SAVE_EXAMPLE },
    handle: ({ user, query, body, context }) =>
      save({ user, partnerId: readOwn(user), quarterName: query.quarter, body, action: "save", comment: null, requestId: context.requestId }),
  }),
  signedInCall({
    method: "POST",
    path: "/template/sales/{partnerId}/",
    summary: "An administrator saves a partner's rows.",
    tag: TAG,
    access: ["ADMIN"],
    params: PartnerParams,
    query: QuarterQuery,
    body: SaveBody,
    maxBodyBytes: 32 * 1024 * 1024,
    answer: Saved,
    errors: [400, 404, 409],
    example: { body: SAVE_EXAMPLE },
    handle: ({ user, params, query, body, context }) =>
      save({ user, partnerId: params.partnerId, quarterName: query.quarter, body, action: "save", comment: null, requestId: context.requestId }),
  }),
  signedInCall({
    method: "POST",
    path: "/template/sales/submit/",
    summary: "Submits the caller's report of the open quarter to the administrators, with a comment.",
    tag: TAG,
    access: ["PARTNER"],
    body: SubmitBody,
    answer: Saved,
    errors: [400, 409],
    example: { body: { message: "Q4 sales as agreed.", version: 4 } },
    handle: ({ user, body, context }) =>
      save({ user, partnerId: readOwn(user), quarterName: undefined, body: { version: body.version, sales_report_id: [], API: [], FDF: [] }, action: "submit", comment: body.message, requestId: context.requestId }),
  }),
  signedInCall({
    method: "POST",
    path: "/template/sales/message/",
    summary: "Approves or rejects a partner's submitted report of the open quarter, with a comment (mailed to the partner).",
    tag: TAG,
    access: ["ADMIN"],
    body: DecisionBody,
    answer: Done,
    errors: [400, 404, 409],
    example: { body: { partner_id: 1, message: "Thank you.", is_approved: true } },
    async handle({ user, body, context }) {
      const view = await loadSalesReport({ viewer: user, partnerId: body.partner_id });
      const action = body.is_approved ? "approve" : "reject";
      const decided = await decideReport({ actor: user, partnerId: body.partner_id, quarterId: view.quarter.id, type: "sales", action, comment: body.message, requestId: context.requestId });
      return { status: "OK", detail: decided.message };
    },
  }),
  signedInCall({
    method: "POST",
    path: "/template/sales/inbox/{who}",
    summary: "Marks the report's messages as read by the caller's side (`partner` for a partner, `admin` with partner_id for administrators).",
    tag: TAG,
    access: ALL_ROLES,
    params: InboxParams,
    query: QuarterQuery,
    body: InboxBody,
    answer: Done,
    errors: [400, 404],
    async handle({ user, params, query, body }) {
      const partnerId = user.role === "PARTNER" ? readOwn(user) : body.partner_id;
      if ((user.role === "PARTNER") !== (params.who === "partner") || !partnerId) {
        throw new ApiError(400, { status: "invalid", detail: "Invalid data!", errors: { partner_id: ["Send partner_id to /inbox/admin; a partner reads /inbox/partner."] } });
      }
      const view = await loadSalesReport({ viewer: user, partnerId, quarterName: query.quarter });
      const result = await markReportMessagesRead(user, partnerId, view.quarter.id, "sales");
      return { status: "OK", detail: "Messages read.", unread_message_count: result.unreadMessageCount };
    },
  }),
];
