/**
 * The administrators' calls (partners, products, product verification, cut-off date, reminders),
 * the country list and the partner dashboard. Each handler calls the model functions of the page
 * that does the same thing, so the rules are the pages' rules.
 */
import * as z from "zod";
import { REGIONS } from "~/db/reference-data";
import { deactivatePartner, getPartnerSummary, listPartners } from "~/models/partner-list.server";
import { createPartner, getPartnerFormOptions, getPartnerFormValues, listCountries, updatePartner } from "~/models/partner.server";
import { decideProductVerification, listProductVerifications, verificationPartnerId, type ProductVerificationItem } from "~/models/product-verification.server";
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
import { openQuarterSpan } from "~/models/quarter.server";
import { reminderToast, sendReminders, type ReminderResult } from "~/models/reminder.server";
import { partnerGuidance } from "~/models/report-overview.server";
import { loadSalesReport } from "~/models/sales-report.server";
import { getCutOffDate, setCutOffDate } from "~/models/settings.server";
import { PartnerSchema, joinContactNumber } from "~/schemas/partner";
import { boundedText } from "~/schemas/fields";
import { EditProductSchema, PRODUCT_CATEGORIES, PRODUCT_NAME_MAX, ProductSchema, parseProductListQuery, productSaveFieldErrors } from "~/schemas/product";
import { cutOffDateField } from "~/schemas/settings";
import { REMINDER_PARTNERS_MAX, ReminderRequestSchema } from "~/schemas/reminders";
import { formatDate } from "~/utils/dates";
import { parsePartnerListQuery } from "~/utils/partner-list";
import { PROJECT_STATUSES } from "~/utils/project-status";
import { REPORT_STATES, REPORT_TYPES, type ReportTypeKey } from "~/utils/reports";
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

// ---------------------------------------------------------------- partners

/** The spec's names of the report types ('pdt', 'filing plan', 'sales'). */
const TEMPLATE_TYPE_NAMES: Record<ReportTypeKey, "pdt" | "filing plan" | "sales"> = { pdt: "pdt", filing: "filing plan", sales: "sales" };
const TemplateTypeName = z.enum(["pdt", "filing plan", "sales"]);
const ReportStatus = z.enum([...REPORT_STATES, "not started"]);

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
        active_products: z.array(z.object({ product_id: z.number().int(), product_name: z.string() })),
        template_data: z.array(z.object({ template_type: TemplateTypeName, report_status: ReportStatus })),
      }),
    ),
  })
  .meta({ id: "PartnerList" });

const PartnerFormValues = z
  .object({
    companyName: z.string(),
    email: z.string(),
    contactPrefix: z.string(),
    contactNumber: z.string(),
    address: z.string(),
    region: z.string(),
    products: z.array(z.object({ productId: z.number().int(), status: z.enum(PROJECT_STATUSES) })),
    people: z.array(
      z.object({ employeeId: z.number().int(), firstName: z.string(), lastName: z.string(), contactPrefix: z.string(), contactNumber: z.string() }),
    ),
  })
  .meta({ id: "PartnerForm", description: "The partner as the PUT body takes it: change what is needed and send it back." });

const PartnerAnswer = z
  .object({
    partner_id: z.number().int(),
    company_name: z.string(),
    email: z.string(),
    contact_number: z.string().meta({ description: "Prefix and 10 digits.", example: "+919876543210" }),
    address: z.string().nullable(),
    region: z.string(),
    is_active: z.boolean(),
    active_products: z.array(z.object({ product_id: z.number().int(), product_name: z.string(), status: z.enum(PROJECT_STATUSES) })),
    employee: z.array(z.object({ employee_id: z.number().int(), first_name: z.string(), last_name: z.string(), contact_number: z.string() })),
    form: PartnerFormValues,
  })
  .meta({ id: "Partner" });

const PartnerSaved = z.object({ status: z.literal("OK"), detail: z.string(), partner_id: z.number().int() }).meta({ id: "PartnerSaved" });

const PARTNER_EXAMPLE = {
  companyName: "Delta Pharma Ltd",
  email: "contact@delta-pharma.example",
  contactPrefix: "+91",
  contactNumber: "9876543210",
  address: "12 Industrial Estate, Hyderabad",
  region: REGIONS[1],
  products: [{ productId: 1, status: "UNDER_DEVELOPMENT" }],
  people: [{ firstName: "Asha", lastName: "Rao", contactPrefix: "+91", contactNumber: "9123456780" }],
};

async function readPartner(id: number): Promise<z.infer<typeof PartnerAnswer>> {
  const found = await getPartnerFormValues(id);
  if (!found) throw notFound(PARTNER_NOT_FOUND);
  const { products: options } = await getPartnerFormOptions(id);
  const names = new Map(options.map((product) => [product.id, product.name]));
  const value = found.value;
  const form = {
    ...value,
    products: value.products.map((row) => ({ productId: Number(row.productId), status: row.status as (typeof PROJECT_STATUSES)[number] })),
    people: value.people.map((person) => ({ ...person, employeeId: Number(person.employeeId) })),
  };
  return {
    partner_id: found.id,
    company_name: value.companyName,
    email: value.email,
    contact_number: joinContactNumber(value.contactPrefix, value.contactNumber),
    address: value.address || null,
    region: value.region,
    is_active: found.isActive,
    active_products: form.products.map((row) => ({ product_id: row.productId, product_name: names.get(row.productId) ?? "", status: row.status })),
    employee: form.people.map((person) => ({
      employee_id: person.employeeId,
      first_name: person.firstName,
      last_name: person.lastName,
      contact_number: joinContactNumber(person.contactPrefix, person.contactNumber),
    })),
    form,
  };
}

// ---------------------------------------------------------------- products

const ProductAnswer = z
  .object({
    product_id: z.number().int(),
    product_name: z.string(),
    category: z.enum(PRODUCT_CATEGORIES),
    therapy_area: z.string(),
    is_active: z.boolean(),
  })
  .meta({ id: "Product" });

const productAnswer = (product: ProductRow): z.infer<typeof ProductAnswer> => ({
  product_id: product.id,
  product_name: product.name,
  category: product.category,
  therapy_area: product.therapyArea,
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

/** A product model's refusal as the API answers it. */
function productRefusal(reason: "duplicate-name" | "unknown-therapy-area" | "not-found"): ApiError {
  if (reason === "not-found") return notFound(PRODUCT_NOT_FOUND);
  return invalid(productSaveFieldErrors(reason));
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
    quarter: z.string(),
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

const VerificationDecision = z.object({
  product_verification_id: idParam,
  is_approved: z.boolean().meta({ description: "true approves (maps the name to a product and assigns it to the partner), false rejects." }),
  product_id: idParam.optional().meta({ description: "Approve by mapping to this existing product of the same category..." }),
  product_name: boundedText(PRODUCT_NAME_MAX).optional().meta({ description: "...or to the product of this name (created when there is none)." }),
  therapy_area: boundedText(TEXT_MAX.name).optional().meta({ description: "Required when a new product is created." }),
  product_status: z.enum(PROJECT_STATUSES).optional().meta({ description: "The partner's project status of the product; default unchanged, PLANNED for a new assignment." }),
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
  partner_ids: z.array(partnerIdField).min(1, { error: "Please select a partner." }).max(REMINDER_PARTNERS_MAX, { error: "Too many partners in one reminder." }),
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
    template_data: z.array(
      z.object({
        template_type: TemplateTypeName,
        quarter_name: z.string().meta({ description: "The open quarter, whose report this is." }),
        report_status: ReportStatus,
        submission_time: z.iso.datetime().nullable(),
        last_message: z.string().nullable(),
      }),
    ),
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
          active_products: row.products.map((product) => ({ product_id: product.id, product_name: product.name })),
          template_data: REPORT_TYPES.map((type) => ({ template_type: TEMPLATE_TYPE_NAMES[type], report_status: row.statuses[type] })),
        })),
      };
    },
  }),
  signedInCall({
    method: "POST",
    path: "/admin/partner/",
    summary: "Adds a partner with its login (no password: a set-password link is mailed), products and people.",
    tag: PARTNERS,
    access: ["ADMIN"],
    body: PartnerSchema,
    answer: PartnerSaved,
    errors: [400],
    example: { body: PARTNER_EXAMPLE },
    async handle({ user, body, context }) {
      const result = await createPartner(body, { actorId: user.id, requestId: context.requestId });
      if (!result.ok) throw invalid(result.fieldErrors);
      return { status: "OK", detail: "Partner added succcessfully!", partner_id: result.partnerId };
    },
  }),
  signedInCall({
    method: "GET",
    path: "/admin/partner/{id}/",
    summary: "A partner, its active products and people; `form` is the same in the PUT body's shape.",
    tag: PARTNERS,
    access: ADMIN_AND_STAFF,
    params: IdParams,
    answer: PartnerAnswer,
    errors: [400, 404],
    handle: ({ params }) => readPartner(params.id),
  }),
  signedInCall({
    method: "PUT",
    path: "/admin/partner/{id}/",
    summary: "Saves a partner: products left out are deactivated, people left out are removed, people with their employeeId are kept.",
    tag: PARTNERS,
    access: ["ADMIN"],
    params: IdParams,
    body: PartnerSchema,
    answer: PartnerSaved,
    errors: [400, 404],
    example: { body: { ...PARTNER_EXAMPLE, people: [{ employeeId: 1, ...PARTNER_EXAMPLE.people[0] }] } },
    async handle({ user, params, body, context }) {
      const result = await updatePartner(params.id, body, { actorId: user.id, requestId: context.requestId });
      if (!result) throw notFound(PARTNER_NOT_FOUND);
      if (!result.ok) throw invalid(result.fieldErrors);
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
    body: ProductSchema,
    answer: ProductSaved,
    errors: [400],
    example: { body: { name: "Lenacapavir 300 mg", category: "FDF", therapyArea: "HIV" } },
    async handle({ user, body, context }) {
      const result = await createProduct(body, { actorId: user.id, requestId: context.requestId });
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
    summary: "Saves a product's name and therapy area (the category never changes: it is not accepted).",
    tag: PRODUCTS,
    access: ["ADMIN"],
    params: IdParams,
    body: EditProductSchema,
    answer: ProductSaved,
    errors: [400, 404],
    example: { body: { name: "Lenacapavir 300 mg tablets", therapyArea: "HIV" } },
    async handle({ user, params, body, context }) {
      const result = await updateProduct(params.id, body, { actorId: user.id, requestId: context.requestId });
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
        quarter: view.quarter.name,
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
    example: { body: { product_verification_id: 1, is_approved: true, product_name: "Efavirenz/Lamivudine/TDF 600/300/300 mg", therapy_area: "HIV", product_status: "FILED" } },
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
          Object.entries(result.errors).map(([key, messages]) => [key === "productName" && mapTo ? "product_id" : (VERIFICATION_FIELD_NAMES[key] ?? key), messages]),
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
    summary: "The caller's dashboard: the open quarter's cut-off date and, per report of the open quarter, its state, submission time and last message.",
    tag: DASHBOARD,
    access: ["PARTNER"],
    answer: PartnerDashboard,
    errors: [],
    async handle({ user }) {
      const { quarterName, cutOff, tiles } = await partnerGuidance(user.partnerId!);
      return {
        cut_off_date: cutOff ? formatDate(cutOff.date) : null,
        template_data: tiles.map((tile) => ({
          template_type: TEMPLATE_TYPE_NAMES[tile.type],
          quarter_name: quarterName,
          report_status: tile.state,
          submission_time: tile.submittedAt?.toISOString() ?? null,
          last_message: tile.lastMessage,
        })),
      };
    },
  }),
];
