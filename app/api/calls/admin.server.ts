/**
 * The administrators' calls (partners, products, product verification, cut-off date, reminders),
 * the country list and the partner dashboard. Each handler calls the model functions of the page
 * that does the same thing, so the rules are the pages' rules.
 */
import * as z from "zod";
import { REGIONS } from "~/db/reference-data";
import { deactivatePartner, getPartnerSummary, listPartners, reportsOfQuarter, type PartnerReports } from "~/models/partner-list.server";
import { createPartner, getPartnerFormValues, listCallingCodes, listCountries, listProductOptions, updatePartner } from "~/models/partner.server";
import {
  decideProductVerification,
  listProductVerifications,
  verificationPartnerId,
  type ProductVerificationItem,
} from "~/reports/sales/product-verification.server";
import {
  createProduct,
  deactivateProduct,
  getPartnerProductDetail,
  getProduct,
  listProducts,
  listStages,
  updateProduct,
  type ProductRow,
} from "~/models/product.server";
import { getOpenQuarter, openQuarterSpan } from "~/models/quarter.server";
import { reminderToast, sendReminders, type ReminderResult } from "~/models/reminder.server";
import { partnerGuidance } from "~/models/report-overview.server";
import { sideOf } from "~/reports/frame/screen.server";
import { loadSalesReport } from "~/reports/sales/model.server";
import { getCutOffDate, setCutOffDate } from "~/models/settings.server";
import type { AuthUser } from "~/models/user.server";
import { CONTACT_DIGITS, joinContactNumber, PartnerSchema, splitContactNumber, type PartnerInput } from "~/schemas/partner";
import { boundedText } from "~/schemas/fields";
import { PRODUCT_CATEGORIES, PRODUCT_NAME_MAX, ProductSchema, parseProductListQuery, productSaveFieldErrors } from "~/schemas/product";
import { cutOffDateField } from "~/schemas/settings";
import { REMINDER_PARTNERS_MAX, ReminderRequestSchema } from "~/schemas/reminders";
import { formatDate } from "~/utils/dates";
import { parsePartnerListQuery } from "~/utils/partner-list";
import { PROJECT_STATUSES } from "~/utils/project-status";
import { REPORT_STATES, REPORT_TYPES, type ReportTypeKey } from "~/reports/frame/registry";
import { TEXT_MAX } from "~/utils/text-rules";
import { ADMIN_AND_STAFF, ALL_ROLES, ApiError, idParam, invalid, notFound, PartnerParams, signedInCall, type ApiCall } from "../call.server";

const PARTNERS = "Partners";
const PRODUCTS = "Products";
const SETTINGS = "Settings and reminders";
const REFERENCE = "Reference data";
const DASHBOARD = "Partner dashboard";

const PARTNER_NOT_FOUND = "Partner not found.";
const PRODUCT_NOT_FOUND = "Product not found.";

const IdParams = z.object({ id: idParam });

const Detail = z.object({ status: z.literal("OK"), detail: z.string() }).meta({ id: "AdminDone" });

/** A form's or a model's field errors ("people[0].firstName" or "people.0.firstName") under the body's names. */
function bodyErrors(errors: Iterable<[string, string[]]>, names: Record<string, string>): Record<string, string[]> {
  const renamed: Record<string, string[]> = {};
  for (const [path, messages] of errors) {
    const key = path
      .split(/[.[\]]+/)
      .filter(Boolean)
      .map((segment) => names[segment] ?? segment)
      .join(".");
    renamed[key] = [...new Set([...(renamed[key] ?? []), ...messages])];
  }
  return renamed;
}

// ---------------------------------------------------------------- partners

/** The spec's names of the report types ('pdt', 'filing plan', 'sales'). */
const TEMPLATE_TYPE_NAMES: Record<ReportTypeKey, "pdt" | "filing plan" | "sales"> = { pdt: "pdt", filing: "filing plan", sales: "sales" };
const TemplateTypeName = z.enum(["pdt", "filing plan", "sales"]);
const ReportStatus = z.enum([...REPORT_STATES, "not started"]);

/** Spec §3's `template_data` entry: a report of the open quarter. */
const TemplateData = z
  .object({
    template_type: TemplateTypeName,
    report_status: ReportStatus,
    is_approved: z.boolean().nullable().meta({ description: "true: Approved; false: Rejected; null otherwise." }),
    quarter_name: z.string().meta({ description: "The open quarter, whose report this is." }),
    submission_time: z.iso.datetime().nullable(),
    updated_at: z.iso.datetime().nullable().meta({ description: "The report's last change; null: not started." }),
    partner_id: z.number().int(),
    is_read: z.boolean().meta({ description: "Whether the caller's side (partner, or administrators) has read the report's messages." }),
  })
  .meta({ id: "TemplateData" });

/** Spec §3's template_data: the partner's three reports of the quarter (read in bulk by reportsOfQuarter). */
function templateData(partnerId: number, quarterName: string, partnerReports: PartnerReports): z.infer<typeof TemplateData>[] {
  return REPORT_TYPES.map((type) => {
    const report = partnerReports[type];
    const status = report?.status ?? "not started";
    return {
      template_type: TEMPLATE_TYPE_NAMES[type],
      report_status: status,
      is_approved: status === "Approved" ? true : status === "Rejected" ? false : null,
      quarter_name: quarterName,
      submission_time: report?.submittedAt?.toISOString() ?? null,
      updated_at: report?.updatedAt.toISOString() ?? null,
      partner_id: partnerId,
      is_read: (report?.unreadMessageCount ?? 0) === 0,
    };
  });
}

/** The partner's template_data of the open quarter, as the viewer's side sees the messages. */
async function openQuarterTemplateData(partnerId: number, viewer: Pick<AuthUser, "role">) {
  const quarter = await getOpenQuarter();
  const reports = await reportsOfQuarter([partnerId], quarter.id, sideOf(viewer.role));
  return templateData(partnerId, quarter.name, reports.get(partnerId)!);
}

const PartnerListQuery = z
  .object({
    q: boundedText(100).optional().meta({ description: "Searches company name and e-mail." }),
    dir: z.enum(["asc", "desc"]).optional().meta({ description: "By company name; default asc." }),
    status: z.enum(["active", "inactive"]).optional().meta({ description: "Default active." }),
  })
  .strict();

const PartnerListAnswer = z
  .object({
    quarter_name: z.string().meta({ description: "The open quarter, whose report states are listed." }),
    partners: z.array(
      z.object({
        partner_id: z.number().int(),
        company_name: z.string(),
        email: z.string(),
        is_active: z.boolean(),
        active_products: z.array(z.object({ product_id: z.number().int(), status: z.enum(PROJECT_STATUSES), product_name: z.string() })),
        template_data: z.array(TemplateData),
      }),
    ),
  })
  .meta({ id: "PartnerList" });

const contactNumber = () => z.string().meta({ description: "The calling code and 10 digits; without a calling code, +91.", example: "+919876543210" });

/** The partner form in spec §3's names: what POST takes, and (with the fields PUT ignores) what GET answers. */
const PartnerFields = z.object({
  company_name: z.string(),
  email: z.string(),
  contact_number: contactNumber(),
  address: z.string().nullable().optional(),
  region: z.string(),
  active_products: z.array(
    z.object({
      product_id: z.number().int(),
      status: z.string().meta({ description: `One of ${PROJECT_STATUSES.join(", ")}.` }),
      product_name: z.string().optional().meta({ description: "Read-only: product_id names the product." }),
    }),
  ),
  employee: z.array(
    z.object({
      employee_id: z
        .number()
        .int()
        .min(0)
        .optional()
        .meta({ description: "An existing contact's id; 0 (or none) adds a contact. Contacts left out are removed." }),
      first_name: z.string(),
      last_name: z.string(),
      contact_number: contactNumber(),
    }),
  ),
});

const NewPartnerBody = PartnerFields.meta({ id: "NewPartner" });

const readOnly = { description: "Read-only: sent back as read, it is ignored." };
const PartnerBody = PartnerFields.extend({
  partner_id: z.number().int().optional().meta({ description: "The partner of the path, when sent." }),
  is_active: z.boolean().optional().meta(readOnly),
  template_data: z.array(TemplateData).optional().meta(readOnly),
}).meta({ id: "PartnerBody", description: "The partner as GET answers it: change what is needed and send it back." });

export const PartnerAnswer = z
  .object({
    partner_id: z.number().int(),
    company_name: z.string(),
    email: z.string(),
    contact_number: z.string().meta({ description: "Prefix and 10 digits.", example: "+919876543210" }),
    address: z.string().nullable(),
    region: z.string(),
    is_active: z.boolean(),
    active_products: z.array(z.object({ product_id: z.number().int(), status: z.enum(PROJECT_STATUSES), product_name: z.string() })),
    employee: z.array(z.object({ employee_id: z.number().int(), first_name: z.string(), last_name: z.string(), contact_number: z.string() })),
    template_data: z.array(TemplateData).meta({ description: "The partner's reports of the open quarter." }),
  })
  .meta({ id: "Partner" });

const PartnerSaved = z.object({ status: z.literal("OK"), detail: z.string(), partner_id: z.number().int() }).meta({ id: "PartnerSaved" });

const PARTNER_EXAMPLE = {
  company_name: "Delta Pharma Ltd",
  email: "contact@delta-pharma.example",
  contact_number: "+919876543210",
  address: "12 Industrial Estate, Hyderabad",
  region: REGIONS[1],
  active_products: [{ product_id: 1, status: "UNDER_DEVELOPMENT" }],
  employee: [{ employee_id: 0, first_name: "Asha", last_name: "Rao", contact_number: "+919123456780" }],
};

/** The partner form's field names (and the model's) as the body names them. */
const PARTNER_FIELD_NAMES: Record<string, string> = {
  companyName: "company_name",
  contactPrefix: "contact_number",
  contactNumber: "contact_number",
  products: "active_products",
  productId: "product_id",
  people: "employee",
  employeeId: "employee_id",
  firstName: "first_name",
  lastName: "last_name",
};

/**
 * "+919876543210" as the form's prefix and number: the last 10 digits after a known calling code,
 * as stored; else after the longest known code it starts with, so the form's length rule names a
 * number of the wrong length.
 */
function splitPosted(posted: string, callingCodes: string[]) {
  const value = posted.replace(/\s+/g, "");
  if (!value.startsWith("+")) return splitContactNumber(value);
  const stored = value.slice(0, -CONTACT_DIGITS);
  if (callingCodes.includes(stored)) return { prefix: stored, number: value.slice(-CONTACT_DIGITS) };
  const prefix = callingCodes.filter((code) => value.startsWith(code)).sort((x, y) => y.length - x.length)[0];
  return prefix ? { prefix, number: value.slice(prefix.length) } : splitContactNumber(value);
}

/** The body checked by the partner form's own rules (the page's), as the models take it. */
async function partnerInput(body: z.infer<typeof PartnerFields>): Promise<PartnerInput> {
  const callingCodes = (await listCallingCodes()).map((code) => code.value);
  const contact = splitPosted(body.contact_number, callingCodes);
  const result = PartnerSchema.safeParse({
    companyName: body.company_name,
    email: body.email,
    contactPrefix: contact.prefix,
    contactNumber: contact.number,
    address: body.address ?? "",
    region: body.region,
    products: body.active_products.map((row) => ({ productId: row.product_id, status: row.status })),
    people: body.employee.map((person) => {
      const phone = splitPosted(person.contact_number, callingCodes);
      // The spec's new contact has employee_id 0.
      return {
        employeeId: person.employee_id || undefined,
        firstName: person.first_name,
        lastName: person.last_name,
        contactPrefix: phone.prefix,
        contactNumber: phone.number,
      };
    }),
  });
  if (!result.success)
    throw invalid(
      bodyErrors(
        result.error.issues.map((issue) => [issue.path.join("."), [issue.message]]),
        PARTNER_FIELD_NAMES,
      ),
    );
  return result.data;
}

/** A partner as every call answers it, with its reports as the viewer's side sees them. */
export async function readPartner(id: number, viewer: Pick<AuthUser, "role">): Promise<z.infer<typeof PartnerAnswer>> {
  const found = await getPartnerFormValues(id);
  if (!found) throw notFound(PARTNER_NOT_FOUND);
  const [options, reports] = await Promise.all([listProductOptions(id), openQuarterTemplateData(id, viewer)]);
  const names = new Map(options.map((product) => [product.id, product.name]));
  const value = found.value;
  return {
    partner_id: found.id,
    company_name: value.companyName,
    email: value.email,
    contact_number: joinContactNumber(value.contactPrefix, value.contactNumber),
    address: value.address || null,
    region: value.region,
    is_active: found.isActive,
    active_products: value.products.map((row) => ({
      product_id: Number(row.productId),
      status: row.status as (typeof PROJECT_STATUSES)[number],
      product_name: names.get(Number(row.productId)) ?? "",
    })),
    employee: value.people.map((person) => ({
      employee_id: Number(person.employeeId),
      first_name: person.firstName,
      last_name: person.lastName,
      contact_number: joinContactNumber(person.contactPrefix, person.contactNumber),
    })),
    template_data: reports,
  };
}

// ---------------------------------------------------------------- products

const ProductAnswer = z
  .object({
    product_id: z.number().int(),
    product_name: z.string(),
    category: z.enum(PRODUCT_CATEGORIES),
    therapy_area: z.string(),
    product_status: z
      .enum(PROJECT_STATUSES)
      .nullable()
      .meta({ description: "A partner's project status of the product: null here (see /admin/product_detail/)." }),
    does_product_exist: z.boolean(),
    active_product_id: z.number().int().nullable().meta({ description: "A partner's assignment of the product: null here (see /admin/product_detail/)." }),
    is_active: z.boolean(),
  })
  .meta({ id: "Product" });

const productAnswer = (product: ProductRow): z.infer<typeof ProductAnswer> => ({
  product_id: product.id,
  product_name: product.name,
  category: product.category,
  therapy_area: product.therapyArea,
  product_status: null,
  does_product_exist: true,
  active_product_id: null,
  is_active: product.isActive,
});

const ProductDetailAnswer = ProductAnswer.extend({
  stages: z.array(z.object({ stage_id: z.number().int(), stage: z.string() })).meta({ description: "The stages of the product's category, in order." }),
}).meta({ id: "ProductDetail" });

const ProductListQuery = z
  .object({
    recent: z.enum(["true", "false"]).optional().meta({ description: "true: the products added last first; otherwise by name." }),
    dir: z.enum(["asc", "desc"]).optional().meta({ description: "By name; default asc." }),
    category: z.enum(PRODUCT_CATEGORIES).optional(),
    status: z.enum(["active", "inactive"]).optional().meta({ description: "Default active." }),
  })
  .strict();

const ProductListAnswer = z.object({ products: z.array(ProductAnswer) }).meta({ id: "ProductList" });
const ProductSaved = z.object({ status: z.literal("OK"), detail: z.string(), product: ProductAnswer }).meta({ id: "ProductSaved" });

/** The product form's rules under spec §3's names. */
const NewProductBody = z
  .object({ product_name: ProductSchema.shape.name, category: ProductSchema.shape.category, therapy_area: ProductSchema.shape.therapyArea })
  .meta({ id: "NewProduct" });

/** A product as GET answers it; the category is locked (sent back, it must be the product's). */
const ProductBody = NewProductBody.extend({
  category: ProductSchema.shape.category.optional().meta({ description: "Locked: the product's own, when sent." }),
  product_id: z.number().int().optional().meta({ description: "The product of the path, when sent." }),
  product_status: z.enum(PROJECT_STATUSES).nullable().optional().meta(readOnly),
  does_product_exist: z.boolean().optional().meta(readOnly),
  active_product_id: z.number().int().nullable().optional().meta(readOnly),
  is_active: z.boolean().optional().meta(readOnly),
  stages: ProductDetailAnswer.shape.stages.optional().meta(readOnly),
}).meta({ id: "ProductBody" });

/** A product model's refusal as the API answers it. */
function productRefusal(reason: "duplicate-name" | "unknown-therapy-area" | "not-found"): ApiError {
  if (reason === "not-found") return notFound(PRODUCT_NOT_FOUND);
  return invalid(bodyErrors(Object.entries(productSaveFieldErrors(reason)), { name: "product_name", therapyArea: "therapy_area" }));
}

const ProductDetailBody = z.object({
  product_name: boundedText(PRODUCT_NAME_MAX, { missing: "Please Enter Product name" }).trim().min(1, { error: "Please Enter Product name" }),
  partner_id: idParam,
});

const PartnerProductDetail = z
  .object({
    product_name: z.string().meta({ description: "As asked when no product has the name; else the product's own spelling." }),
    partner_id: z.number().int(),
    does_product_exist: z.boolean(),
    product_id: z.number().int().nullable(),
    category: z.enum(PRODUCT_CATEGORIES).nullable(),
    therapy_area: z.string().nullable(),
    is_active: z.boolean().nullable().meta({ description: "Whether the product is active (null: no such product)." }),
    active_product_id: z.number().int().nullable().meta({ description: "The partner's active assignment of the product (null: not assigned)." }),
    product_status: z.enum(PROJECT_STATUSES).nullable().meta({ description: "The partner's project status of the product (null: not assigned)." }),
  })
  .meta({ id: "PartnerProductDetail" });

// ---------------------------------------------------------------- product verification

const VerificationItem = z
  .object({
    product_verification_id: z.number().int(),
    product_name: z.string(),
    is_approved: z.boolean().nullable().meta({ description: "null while pending." }),
    category: z.enum(PRODUCT_CATEGORIES),
    therapy_area: z.string().nullable(),
    product_status: z.enum(PROJECT_STATUSES).nullable(),
    product_id: z.number().int().nullable(),
    mapped_product_name: z.string().nullable(),
    does_product_exist: z.boolean(),
    existing_product_id: z.number().int().nullable(),
    row_count: z.number().int(),
    created_at: z.iso.datetime(),
    decided_at: z.iso.datetime().nullable(),
  })
  .meta({ id: "ProductVerification" });

const VerificationList = z
  .object({
    partner_id: z.number().int(),
    quarter_name: z.string(),
    report_id: z.number().int().nullable(),
    pending_product_count: z.number().int(),
    pending_products: z.array(VerificationItem).meta({ description: "Names of the open quarter's Sales Report waiting for a decision." }),
    existing_products: z.array(VerificationItem).meta({ description: "The partner's decided names, newest first." }),
  })
  .meta({ id: "ProductVerificationList" });

const verificationItem = (item: ProductVerificationItem): z.infer<typeof VerificationItem> => ({
  ...item,
  created_at: item.created_at.toISOString(),
  decided_at: item.decided_at?.toISOString() ?? null,
});

/** A decision on a verification: the item as read may be sent back with its decision (its other fields are ignored). */
const VerificationDecision = z.object({
  product_verification_id: idParam,
  is_approved: z.boolean().meta({ description: "true approves (maps the name to a product and assigns it to the partner), false rejects." }),
  product_id: idParam.nullable().optional().meta({ description: "Approve by mapping to this existing product of the same category..." }),
  product_name: boundedText(PRODUCT_NAME_MAX).optional().meta({ description: "...or to the product of this name (created when there is none)." }),
  therapy_area: boundedText(TEXT_MAX.name).nullable().optional().meta({ description: "Required when a new product is created." }),
  product_status: z.enum(PROJECT_STATUSES).nullable().optional().meta({ description: "The partner's project status of the product: required to approve." }),
  category: VerificationItem.shape.category.optional().meta(readOnly),
  mapped_product_name: VerificationItem.shape.mapped_product_name.optional().meta(readOnly),
  does_product_exist: VerificationItem.shape.does_product_exist.optional().meta(readOnly),
  existing_product_id: VerificationItem.shape.existing_product_id.optional().meta(readOnly),
  row_count: VerificationItem.shape.row_count.optional().meta(readOnly),
  created_at: VerificationItem.shape.created_at.optional().meta(readOnly),
  decided_at: VerificationItem.shape.decided_at.optional().meta(readOnly),
});

/** The model's field names as the body names them. */
const VERIFICATION_FIELD_NAMES: Record<string, string> = {
  decision: "is_approved",
  productName: "product_name",
  therapyArea: "therapy_area",
  projectStatus: "product_status",
};

const VerificationDecided = z
  .object({
    status: z.literal("OK"),
    detail: z.string(),
    is_approved: z.boolean(),
    product_id: z.number().int().nullable(),
    created_product: z.boolean(),
    rows_mapped: z.number().int(),
  })
  .meta({ id: "ProductVerificationDecided" });

// ---------------------------------------------------------------- cut-off date and reminders

const CutOffAnswer = z
  .object({ cut_off_date: z.string().nullable().meta({ description: "DD-MM-YYYY; null when none is set.", example: "15-12-2026" }) })
  .meta({ id: "CutOffDate" });
const CutOffBody = z.object({
  cut_off_date: cutOffDateField().meta({
    description: "DD-MM-YYYY (YYYY-MM-DD is also read); not before the first day of the open quarter.",
    example: "15-12-2026",
  }),
});

/** 'filing' is the app's own name of 'filing plan'. */
const TemplateType = z
  .enum(["pdt", "filing plan", "filing", "sales"], { error: "Please select a report." })
  .meta({ description: "The report to remind of: 'pdt', 'filing plan' (or 'filing') or 'sales'." });
const reportTypeOf = (type: z.infer<typeof TemplateType>): ReportTypeKey => (type === "filing plan" ? "filing" : type);

const partnerIdField = ReminderRequestSchema.shape.partnerId.element;
const ReminderBody = z.object({ partner_id: partnerIdField, template_type: TemplateType });
const BulkReminderBody = z.object({
  partner_ids: z
    .array(partnerIdField)
    .min(1, { error: "Please select a partner." })
    .max(REMINDER_PARTNERS_MAX, { error: "Too many partners in one reminder." }),
  template_type: TemplateType.optional().meta({
    description: "The report to remind of: 'pdt', 'filing plan' (or 'filing') or 'sales'. Without it each partner gets one mail listing every report it owes.",
  }),
});

const ReminderAnswer = z
  .object({
    status: z.literal("OK"),
    detail: z.string().meta({ example: "Reminder sent!" }),
    sent: z.array(z.number().int()).meta({ description: "Partners mailed." }),
    skipped: z.array(z.object({ partner_id: z.number().int(), reason: z.string() })).meta({ description: "Partners not mailed, with the reason." }),
  })
  .meta({ id: "ReminderSent" });

function reminderAnswer(result: ReminderResult): z.infer<typeof ReminderAnswer> {
  const toast = reminderToast(result);
  const values: Record<string, string | number> = toast.values ?? {};
  return {
    status: "OK",
    detail: toast.message.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? "")),
    sent: result.sent,
    skipped: result.skipped.map((skip) => ({ partner_id: skip.partnerId, reason: skip.reason })),
  };
}

// ---------------------------------------------------------------- reference data and dashboard

const CountryList = z
  .object({
    countries: z.array(z.object({ country_id: z.number().int(), country: z.string(), iso_code: z.string(), calling_code: z.string() })),
  })
  .meta({ id: "CountryList" });

const PartnerDashboard = z
  .object({
    cut_off_date: z.string().nullable().meta({ description: "The open quarter's submission date, DD-MM-YYYY (null: none set for it)." }),
    template_data: z.array(TemplateData.extend({ last_message: z.string().nullable() }).meta({ id: "PartnerDashboardReport" })),
  })
  .meta({ id: "PartnerDashboard" });

// ---------------------------------------------------------------- the calls

export const ADMIN_CALLS: ApiCall[] = [
  signedInCall({
    method: "GET",
    path: "/admin/partner/",
    summary: "The partner list with each partner's active products and report states of the open quarter.",
    tag: PARTNERS,
    access: ADMIN_AND_STAFF,
    query: PartnerListQuery,
    answer: PartnerListAnswer,
    errors: [400],
    async handle({ request }) {
      const { quarterName, rows } = await listPartners(parsePartnerListQuery(new URL(request.url).searchParams));
      return {
        quarter_name: quarterName,
        partners: rows.map((row) => ({
          partner_id: row.id,
          company_name: row.companyName,
          email: row.email,
          is_active: row.isActive,
          active_products: row.products.map((product) => ({ product_id: product.id, status: product.status, product_name: product.name })),
          template_data: templateData(row.id, quarterName, row.reports),
        })),
      };
    },
  }),
  signedInCall({
    method: "POST",
    path: "/admin/partner/",
    summary: "Adds a partner with its login (no password: a set-password link is mailed), products and contacts.",
    tag: PARTNERS,
    access: ["ADMIN"],
    body: NewPartnerBody,
    answer: PartnerSaved,
    errors: [400],
    example: { body: PARTNER_EXAMPLE },
    async handle({ user, body, context }) {
      const result = await createPartner(await partnerInput(body), { actorId: user.id, requestId: context.requestId });
      if (!result.ok) throw invalid(bodyErrors(Object.entries(result.fieldErrors), PARTNER_FIELD_NAMES));
      return { status: "OK", detail: "Partner added succcessfully!", partner_id: result.partnerId };
    },
  }),
  signedInCall({
    method: "GET",
    path: "/admin/partner/{id}/",
    summary: "A partner with its active products, contacts and reports of the open quarter: PUT takes it back.",
    tag: PARTNERS,
    access: ADMIN_AND_STAFF,
    params: IdParams,
    answer: PartnerAnswer,
    errors: [400, 404],
    handle: ({ user, params }) => readPartner(params.id, user),
  }),
  signedInCall({
    method: "PUT",
    path: "/admin/partner/{id}/",
    summary:
      "Saves a partner as GET answers it: products left out are deactivated, contacts left out are removed, contacts with their employee_id are kept, employee_id 0 adds one.",
    tag: PARTNERS,
    access: ["ADMIN"],
    params: IdParams,
    body: PartnerBody,
    answer: PartnerSaved,
    errors: [400, 404],
    example: { body: { ...PARTNER_EXAMPLE, partner_id: 1, employee: [{ ...PARTNER_EXAMPLE.employee[0], employee_id: 1 }] } },
    async handle({ user, params, body, context }) {
      if (body.partner_id !== undefined && body.partner_id !== params.id) throw invalid({ partner_id: ["Not the partner of the path."] });
      const result = await updatePartner(params.id, await partnerInput(body), { actorId: user.id, requestId: context.requestId });
      if (!result) throw notFound(PARTNER_NOT_FOUND);
      if (!result.ok) throw invalid(bodyErrors(Object.entries(result.fieldErrors), PARTNER_FIELD_NAMES));
      return { status: "OK", detail: "Partner edited succcessfully!", partner_id: result.partnerId };
    },
  }),
  signedInCall({
    method: "DELETE",
    path: "/admin/partner/{id}/",
    summary: "Deactivates a partner (soft delete): its data stays, its login is disabled and its sessions and tokens end.",
    tag: PARTNERS,
    access: ["ADMIN"],
    params: IdParams,
    answer: Detail,
    errors: [400, 404],
    async handle({ user, params, context }) {
      const result = await deactivatePartner(params.id, { actorId: user.id, requestId: context.requestId });
      if (result === "not-found") throw notFound(PARTNER_NOT_FOUND);
      return { status: "OK", detail: "Partner successfully removed!" };
    },
  }),

  signedInCall({
    method: "GET",
    path: "/admin/product/",
    summary: "The product list: active products by name, or with ?recent=true the products added last first.",
    tag: PRODUCTS,
    access: ADMIN_AND_STAFF,
    query: ProductListQuery,
    answer: ProductListAnswer,
    errors: [400],
    async handle({ query, request }) {
      const rows = await listProducts(parseProductListQuery(new URL(request.url).searchParams), { newestFirst: query.recent === "true" });
      return { products: rows.map(productAnswer) };
    },
  }),
  signedInCall({
    method: "POST",
    path: "/admin/product/",
    summary: "Adds a product (name unique, case-insensitive).",
    tag: PRODUCTS,
    access: ["ADMIN"],
    body: NewProductBody,
    answer: ProductSaved,
    errors: [400],
    example: { body: { product_name: "Lenacapavir 300 mg", category: "FDF", therapy_area: "HIV" } },
    async handle({ user, body, context }) {
      const input = { name: body.product_name, category: body.category, therapyArea: body.therapy_area };
      const result = await createProduct(input, { actorId: user.id, requestId: context.requestId });
      if (!result.ok) throw productRefusal(result.reason);
      return { status: "OK", detail: "Product added succcessfully!", product: productAnswer(result.product) };
    },
  }),
  signedInCall({
    method: "GET",
    path: "/admin/product/{id}/",
    summary: "A product with the stages of its category.",
    tag: PRODUCTS,
    access: ADMIN_AND_STAFF,
    params: IdParams,
    answer: ProductDetailAnswer,
    errors: [400, 404],
    async handle({ params }) {
      const product = await getProduct(params.id);
      if (!product) throw notFound(PRODUCT_NOT_FOUND);
      const stages = await listStages(product.category);
      return { ...productAnswer(product), stages: stages.map((stage) => ({ stage_id: stage.id, stage: stage.name })) };
    },
  }),
  signedInCall({
    method: "PUT",
    path: "/admin/product/{id}/",
    summary: "Saves a product as GET answers it: its name and therapy area (the category never changes).",
    tag: PRODUCTS,
    access: ["ADMIN"],
    params: IdParams,
    body: ProductBody,
    answer: ProductSaved,
    errors: [400, 404],
    example: { body: { product_name: "Lenacapavir 300 mg tablets", therapy_area: "HIV" } },
    async handle({ user, params, body, context }) {
      if (body.product_id !== undefined && body.product_id !== params.id) throw invalid({ product_id: ["Not the product of the path."] });
      if (body.category !== undefined) {
        const product = await getProduct(params.id);
        if (!product) throw notFound(PRODUCT_NOT_FOUND);
        if (product.category !== body.category) throw invalid({ category: ["The category of a product cannot change."] });
      }
      const result = await updateProduct(
        params.id,
        { name: body.product_name, therapyArea: body.therapy_area },
        { actorId: user.id, requestId: context.requestId },
      );
      if (!result.ok) throw productRefusal(result.reason);
      return { status: "OK", detail: "Product edited succcessfully!", product: productAnswer(result.product) };
    },
  }),
  signedInCall({
    method: "DELETE",
    path: "/admin/product/{id}/",
    summary: "Deactivates a product (soft delete): report rows that name it stay.",
    tag: PRODUCTS,
    access: ["ADMIN"],
    params: IdParams,
    answer: Detail,
    errors: [400, 404],
    async handle({ user, params, context }) {
      const product = await deactivateProduct(params.id, { actorId: user.id, requestId: context.requestId });
      if (!product) throw notFound(PRODUCT_NOT_FOUND);
      return { status: "OK", detail: "Product Deactivated!" };
    },
  }),
  signedInCall({
    method: "POST",
    path: "/admin/product_detail/",
    summary: "The product of a name (case-insensitive) for a partner: whether it exists and whether, and with which status, the partner has it.",
    tag: PRODUCTS,
    access: ADMIN_AND_STAFF,
    body: ProductDetailBody,
    answer: PartnerProductDetail,
    errors: [400, 404],
    example: { body: { product_name: "Dolutegravir 50 mg", partner_id: 1 } },
    async handle({ body }) {
      if (!(await getPartnerSummary(body.partner_id))) throw notFound(PARTNER_NOT_FOUND);
      const found = await getPartnerProductDetail(body.partner_id, body.product_name);
      const assigned = found?.assignment?.isActive ? found.assignment : null;
      return {
        product_name: found?.product.name ?? body.product_name,
        partner_id: body.partner_id,
        does_product_exist: Boolean(found),
        product_id: found?.product.id ?? null,
        category: found?.product.category ?? null,
        therapy_area: found?.product.therapyArea ?? null,
        is_active: found?.product.isActive ?? null,
        active_product_id: assigned?.id ?? null,
        product_status: assigned?.projectStatus ?? null,
      };
    },
  }),

  signedInCall({
    method: "GET",
    path: "/template/product_verification/{partnerId}",
    summary: "Product names of the partner's open-quarter Sales Report that wait for verification, and the partner's decided names.",
    tag: PRODUCTS,
    access: ADMIN_AND_STAFF,
    params: PartnerParams,
    answer: VerificationList,
    errors: [400, 404],
    async handle({ user, params }) {
      const view = await loadSalesReport({ viewer: user, partnerId: params.partnerId });
      const list = await listProductVerifications(params.partnerId, view.report.id);
      return {
        partner_id: params.partnerId,
        quarter_name: view.quarter.name,
        report_id: view.report.id,
        pending_product_count: view.pendingProductCount,
        // Without a report of the quarter nothing of it waits (the model would list every pending name).
        pending_products: view.report.id ? list.pendingProducts.map(verificationItem) : [],
        existing_products: list.existingProducts.map(verificationItem),
      };
    },
  }),
  signedInCall({
    method: "POST",
    path: "/template/product_verification/{partnerId}",
    summary: "Approves (mapping to an existing product or creating one, and assigning it to the partner) or rejects a pending product name.",
    tag: PRODUCTS,
    access: ["ADMIN"],
    params: PartnerParams,
    body: VerificationDecision,
    answer: VerificationDecided,
    errors: [400, 404, 409],
    example: {
      body: {
        product_verification_id: 1,
        is_approved: true,
        product_name: "Efavirenz/Lamivudine/TDF 600/300/300 mg",
        therapy_area: "HIV",
        product_status: "FILED",
      },
    },
    async handle({ user, params, body, context }) {
      if ((await verificationPartnerId(body.product_verification_id)) !== params.partnerId) throw notFound("Product verification not found");
      const mapTo = body.product_id ?? null;
      const result = await decideProductVerification({
        actor: user,
        verificationId: body.product_verification_id,
        decision: body.is_approved ? "approve" : "reject",
        mapToProductId: mapTo,
        newProduct: mapTo ? null : { name: body.product_name ?? "", therapyArea: body.therapy_area ?? "" },
        projectStatus: body.product_status ?? null,
        requestId: context.requestId,
      });
      if (!result.ok) {
        const errors = Object.fromEntries(
          Object.entries(result.errors).map(([key, messages]) => [
            key === "productName" && mapTo ? "product_id" : (VERIFICATION_FIELD_NAMES[key] ?? key),
            messages,
          ]),
        );
        throw invalid(errors);
      }
      return {
        status: "OK",
        detail: result.message,
        is_approved: result.status === "approved",
        product_id: result.productId,
        created_product: result.createdProduct,
        rows_mapped: result.rowsMapped,
      };
    },
  }),

  signedInCall({
    method: "GET",
    path: "/admin/cut_off_date/",
    summary: "The report submission (cut-off) date of the open quarter.",
    tag: SETTINGS,
    access: ADMIN_AND_STAFF,
    answer: CutOffAnswer,
    errors: [],
    async handle() {
      const date = await getCutOffDate();
      return { cut_off_date: date ? formatDate(date) : null };
    },
  }),
  signedInCall({
    method: "POST",
    path: "/admin/cut_off_date/",
    summary: "Sets the report submission (cut-off) date of the open quarter.",
    tag: SETTINGS,
    access: ["ADMIN"],
    body: CutOffBody,
    answer: Detail,
    errors: [400],
    example: { body: { cut_off_date: "15-12-2026" } },
    async handle({ user, body, context }) {
      // The form's rule: the body's date is read again with the open quarter's first day as its bound.
      const date = cutOffDateField(openQuarterSpan().startDate).safeParse(body.cut_off_date);
      if (!date.success) throw invalid({ cut_off_date: date.error.issues.map((issue) => issue.message) });
      await setCutOffDate(date.data, { actorId: user.id, requestId: context.requestId });
      return { status: "OK", detail: "Submission Date set successfully!" };
    },
  }),
  signedInCall({
    method: "POST",
    path: "/template/reminder/",
    summary:
      "Mails a partner a reminder of a report with the link and the cut-off date (at most one per report an hour; none for a report already submitted or approved).",
    tag: SETTINGS,
    access: ["ADMIN"],
    body: ReminderBody,
    answer: ReminderAnswer,
    errors: [400, 404],
    example: { body: { partner_id: 1, template_type: "sales" } },
    async handle({ user, body, context }) {
      if (!(await getPartnerSummary(body.partner_id))) throw notFound(PARTNER_NOT_FOUND);
      const result = await sendReminders({
        partnerIds: [body.partner_id],
        reportType: reportTypeOf(body.template_type),
        actorId: user.id,
        requestId: context.requestId,
        kind: "manual",
      });
      return reminderAnswer(result);
    },
  }),
  signedInCall({
    method: "POST",
    path: "/template/bulkReminder/",
    summary:
      "Mails a reminder of a report (or of every report owed) to each partner named; inactive, unknown and recently reminded partners, and reports already submitted or approved, are listed as skipped.",
    tag: SETTINGS,
    access: ["ADMIN"],
    body: BulkReminderBody,
    answer: ReminderAnswer,
    errors: [400],
    example: { body: { partner_ids: [1, 2, 3], template_type: "pdt" } },
    async handle({ user, body, context }) {
      const result = await sendReminders({
        partnerIds: body.partner_ids,
        reportType: body.template_type && reportTypeOf(body.template_type),
        actorId: user.id,
        requestId: context.requestId,
        kind: "manual",
      });
      return reminderAnswer(result);
    },
  }),

  signedInCall({
    method: "GET",
    path: "/country_list/",
    summary: "Every country with its ISO code and calling code, by name.",
    tag: REFERENCE,
    access: ALL_ROLES,
    answer: CountryList,
    errors: [],
    async handle() {
      const rows = await listCountries();
      return { countries: rows.map((row) => ({ country_id: row.id, country: row.name, iso_code: row.isoCode, calling_code: row.callingCode })) };
    },
  }),
  signedInCall({
    method: "GET",
    path: "/partner/dashboard/",
    summary: "The caller's dashboard: the open quarter's cut-off date and its reports (spec §3's template_data) with their last message.",
    tag: DASHBOARD,
    access: ["PARTNER"],
    answer: PartnerDashboard,
    errors: [],
    async handle({ user }) {
      const [{ cutOff, tiles }, reports] = await Promise.all([partnerGuidance(user.partnerId!), openQuarterTemplateData(user.partnerId!, user)]);
      return {
        cut_off_date: cutOff ? formatDate(cutOff.date) : null,
        // Both in the order of REPORT_TYPES.
        template_data: reports.map((report, index) => ({ ...report, last_message: tiles[index].lastMessage })),
      };
    },
  }),
];
