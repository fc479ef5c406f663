/**
 * The consolidated reports by machine (spec section 7 `/report/pdt/`, `/report/filing/`,
 * `/report/sales/{x}` and their downloads), for administrators and staff. The API body is
 * translated once (`asPageQuery`) into the query string the pages read, and read by the pages'
 * own query schemas, so the filter rules have one home: the page, its downloads and these calls
 * run the same model functions on the same query. The answers carry the spec's names (section 3):
 * the filter lists beside the rows as `partner_filter`, `quarter_filter`... and rows in the names
 * of the report's own screen.
 */
import * as z from "zod";
import { filingQuerySchema, FILING_SORTS, listFilingConsolidated, type FilingConsolidatedView } from "~/reports/filing/consolidated.server";
import { filingConsolidatedDownload } from "~/reports/filing/consolidated-download.server";
import { listPdtConsolidated, pdtQuerySchema, PDT_SORTS, type PdtConsolidatedView } from "~/reports/pdt/consolidated.server";
import { pdtConsolidatedDownload } from "~/reports/pdt/consolidated-download.server";
import { listSalesConsolidated, salesConsolidatedQuery, SALES_SORTS, type SalesConsolidatedView } from "~/reports/sales/consolidated.server";
import { openSalesDownload } from "~/reports/sales/consolidated-download.server";
import { listQuartersUpTo, openQuarterRef } from "~/models/quarter.server";
import { getQuarterById } from "~/reports/frame/screen.server";
import { MONTHS } from "~/db/reference-data";
import { CONSOLIDATED_PAGE_SIZES, type FilterOption } from "~/reports/consolidated/paging";
import { boundedText } from "~/schemas/fields";
import { readQuery } from "~/utils/query-string.server";
import { PROJECT_STATUSES } from "~/utils/project-status";
import { REPORT_STATES } from "~/reports/frame/registry";
import { SALES_SPEC_FIELD } from "~/reports/sales/contract";
import { columnsFor, type SalesKind } from "~/reports/sales/columns";
import { TEXT_MAX } from "~/utils/text-rules";
import { ADMIN_AND_STAFF, callsUnder, idParam, invalid, pagedAnswer, pagedAnswerFields } from "~/api/call.server";

const TAG = "Consolidated reports";
/** The most rows one page of an API answer holds. */
const MAX_PAGE_SIZE = 500;

// ---------------------------------------------------------------- the one adapter

type QueryValue = string | number | null | undefined;

/**
 * The query a page reads for these API values (page-query name -> value): written as the page's
 * query string and read by the page's schema, as the page's loader reads its link.
 */
function asPageQuery<Shape extends z.ZodRawShape>(schema: z.ZodObject<Shape>, values: Record<string, QueryValue>) {
  const url = new URL("http://api.invalid/");
  for (const [key, value] of Object.entries(values)) if (value !== undefined && value !== null && value !== "") url.searchParams.set(key, String(value));
  return readQuery(schema, url);
}

/** `?format=xlsx` (the default) or `?format=csv` for a download. */
const FormatQuery = z.object({ format: z.enum(["xlsx", "csv"]).optional().meta({ description: "The file type: xlsx (default) or csv." }) }).strict();
const FILE_ANSWER = {
  contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  description: "The file of every row the filters match (all pages), named in Content-Disposition; `?format=csv` answers text/csv instead.",
};

const pageFields = (defaultSize: number) => ({
  page_number: z.number().int().min(1).max(1_000_000).optional().meta({ description: "1-based; a page past the end answers the last page.", example: 1 }),
  page_size: z
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_SIZE)
    .optional()
    .meta({ description: `Rows per page (the page's ${defaultSize} when left out).`, example: defaultSize }),
  dir: z.enum(["asc", "desc"]).optional(),
});
const optionalId = idParam.nullish();
const optionalText = boundedText(TEXT_MAX.name).nullish();
const pageAnswer = {
  ...pagedAnswerFields("Rows matching the filters, all pages."),
  quarter: z.string().meta({ example: "Q2 2026" }),
};

// The filter lists (spec section 3 "Report filter options"): a partner, a quarter, a product, a
// country or a stage as its `<x>_id` (the value a body's filter takes) and its `<x>_name`; the
// lists of plain values (statuses, years, months) as `{id, name}`.
const PartnerOption = z.object({ partner_id: z.number().int(), company_name: z.string() });
const QuarterOption = z.object({ quarter_id: z.number().int(), quarter_name: z.string() });
const ProductOption = z
  .object({ product_id: z.number().int(), product_name: z.string() })
  .meta({ description: "A product as its id (the body's product_id, or a key of product_status_dict) and its name." });
const CountryOption = z
  .object({ country_id: z.number().int(), country_name: z.string() })
  .meta({ description: "A country as its id (the body's country_id) and its name." });
const StageOption = z.object({ stage_id: z.number().int(), stage_name: z.string() });
const ValueOption = z.object({ id: z.number().int(), name: z.string() });
const TextOption = z.object({ id: z.string(), name: z.string() });

const partnerOptions = (options: FilterOption[]) => options.map(({ id, name }) => ({ partner_id: id, company_name: name }));
const quarterOptions = (options: FilterOption[]) => options.map(({ id, name }) => ({ quarter_id: id, quarter_name: name }));
const productOptions = (options: FilterOption[]) => options.map(({ id, name }) => ({ product_id: id, product_name: name }));
const countryOptions = (options: FilterOption[]) => options.map(({ id, name }) => ({ country_id: id, country_name: name }));

// ---------------------------------------------------------------- PDT

const PdtBody = z
  .object({
    ...pageFields(CONSOLIDATED_PAGE_SIZES.pdt),
    quarter: z.string().max(20).nullish().meta({ description: "A quarter such as 'Q2 2026'; the open quarter when left out.", example: "Q2 2026" }),
    partner_id: optionalId,
    product_id: optionalId,
    stages: optionalId.meta({ description: "A stage id." }),
    status: z.enum(PROJECT_STATUSES).nullish().meta({ description: "The product's project status." }),
    report_status: z.enum(REPORT_STATES).nullish().meta({ description: "The report's workflow state." }),
    sort: z.enum(PDT_SORTS).nullish(),
  })
  .meta({ id: "PdtReportQuery" });
type PdtBody = z.infer<typeof PdtBody>;

const pdtQuery = (body: PdtBody) =>
  asPageQuery(pdtQuerySchema, {
    quarter: body.quarter,
    partner: body.partner_id,
    product: body.product_id,
    stage: body.stages,
    status: body.status,
    reportStatus: body.report_status,
    sort: body.sort,
    dir: body.dir,
    page: body.page_number,
  });

const PdtReport = z
  .object({
    ...pageAnswer,
    quarter_order: z.array(z.string()).meta({ description: "The quarters of the rows' dates, oldest first; the selected quarter last." }),
    rows: z.array(
      z
        .object({
          report_id: z.number().int(),
          partner_id: z.number().int(),
          company_name: z.string(),
          product_id: z.number().int(),
          product: z.string().meta({ description: "The product's name." }),
          stage_id: z.number().int(),
          stage: z.string().meta({ description: "The stage's name." }),
          product_status: z.enum(PROJECT_STATUSES).nullable(),
          report_status: z.enum(REPORT_STATES),
        })
        .catchall(z.iso.date().nullable())
        .meta({
          description:
            "A Development Timeline row as the PDT screen names it, with `start_date_<q>` and `end_date_<q>` for every quarter q of quarter_order (ISO dates or null).",
        }),
    ),
    quarter_filter: z.array(QuarterOption).meta({ description: "Newest first; `quarter_name` is the body's `quarter`." }),
    partner_filter: z.array(PartnerOption),
    product_filter: z.array(ProductOption),
    stage_filter: z.array(StageOption).meta({ description: "`stage_id` is the body's `stages`." }),
    status_filter: z.array(TextOption).meta({ description: "`id` is the body's `status`." }),
    report_status_filter: z.array(TextOption),
  })
  .meta({ id: "PdtReport" });

// Not typed as z.infer<typeof PdtReport>: TypeScript reads the date catchall as every key's type.
function pdtAnswer(view: PdtConsolidatedView) {
  const { options } = view;
  return {
    ...pagedAnswer(view.page),
    quarter: view.quarter.name,
    quarter_order: view.quarterOrder,
    rows: view.page.rows.map((row) => ({
      report_id: row.reportId,
      partner_id: row.partnerId,
      company_name: row.companyName,
      product_id: row.productId,
      product: row.productName,
      stage_id: row.stageId,
      stage: row.stageName,
      product_status: row.status,
      report_status: row.reportStatus,
      ...Object.fromEntries(
        row.dates.flatMap((pair, index) => [
          [`start_date_${view.quarterOrder[index]}`, pair.startDate],
          [`end_date_${view.quarterOrder[index]}`, pair.endDate],
        ]),
      ),
    })),
    quarter_filter: quarterOptions(options.quarter_filter),
    partner_filter: partnerOptions(options.partner_filter),
    product_filter: productOptions(options.product_filter),
    stage_filter: options.stage_filter.map(({ id, name }) => ({ stage_id: id, stage_name: name })),
    status_filter: options.status_filter,
    report_status_filter: options.report_status_filter,
  };
}

// ---------------------------------------------------------------- Filing Plans

const FilingBody = z
  .object({
    ...pageFields(CONSOLIDATED_PAGE_SIZES.filing),
    quarter: z.string().max(20).nullish().meta({ description: "A quarter such as 'Q2 2026'; the open quarter when left out.", example: "Q2 2026" }),
    partner_id: optionalId,
    country_id: optionalId,
    product_status_dict: z
      .record(z.string().regex(/^\d{1,10}$/, "A product id."), boundedText(TEXT_MAX.name))
      .nullish()
      .refine((dict) => !dict || Object.keys(dict).length <= 1, "One product at a time.")
      .meta({
        description:
          "`{product_id: status}`: rows whose cell for that product holds that status (an empty status: any filing of the product). One product at a time.",
        example: { "3": "Filed" },
      }),
    status: optionalText.meta({ description: "Rows with this status for any product (without product_status_dict)." }),
    report_status: z.enum(REPORT_STATES).nullish(),
    sort: z.enum(FILING_SORTS).nullish(),
  })
  .meta({ id: "FilingReportQuery" });
type FilingBody = z.infer<typeof FilingBody>;

function filingQuery(body: FilingBody) {
  const [entry] = Object.entries(body.product_status_dict ?? {});
  if (entry && body.status) throw invalid({ status: ["Give a status in product_status_dict or in status, not both."] });
  return asPageQuery(filingQuerySchema, {
    quarter: body.quarter,
    partner: body.partner_id,
    country: body.country_id,
    reportStatus: body.report_status,
    product: entry?.[0],
    productStatus: entry ? entry[1] : body.status,
    sort: body.sort,
    dir: body.dir,
    page: body.page_number,
  });
}

const FilingReport = z
  .object({
    ...pageAnswer,
    products: z.array(ProductOption).meta({ description: "The product columns: every product with a filing in the quarter." }),
    rows: z.array(
      z.object({
        report_id: z.number().int(),
        partner_id: z.number().int(),
        company_name: z.string(),
        country_id: z.number().int(),
        country: z.string(),
        report_status: z.enum(REPORT_STATES),
        product_status_dict: z.record(z.string(), z.string()).meta({ description: "By product id: the cell's status (absent: no filing)." }),
      }),
    ),
    quarter_filter: z.array(QuarterOption).meta({ description: "Newest first; `quarter_name` is the body's `quarter`." }),
    partner_filter: z.array(PartnerOption),
    country_filter: z.array(CountryOption),
    product_filter: z.array(ProductOption),
    status_filter: z.array(TextOption).meta({ description: "`id` is a status of the body's product_status_dict." }),
    report_status_filter: z.array(TextOption),
  })
  .meta({ id: "FilingReport" });

function filingAnswer(view: FilingConsolidatedView): z.infer<typeof FilingReport> {
  const { options } = view;
  return {
    ...pagedAnswer(view.page),
    quarter: view.quarter.name,
    products: productOptions(view.products),
    rows: view.page.rows.map((row) => ({
      report_id: row.reportId,
      partner_id: row.partnerId,
      company_name: row.companyName,
      country_id: row.countryId,
      country: row.country,
      report_status: row.reportStatus,
      product_status_dict: row.cells,
    })),
    quarter_filter: quarterOptions(options.quarter_filter),
    partner_filter: partnerOptions(options.partner_filter),
    country_filter: countryOptions(options.country_filter),
    product_filter: productOptions(options.product_filter),
    status_filter: options.status_filter,
    report_status_filter: options.report_status_filter,
  };
}

// ---------------------------------------------------------------- Sales

const SalesParams = z.object({ x: z.enum(["api", "fdf", "API", "FDF"]).meta({ description: "The table: api or fdf." }) });
const kindOf = (x: string): SalesKind => (x.toUpperCase() === "FDF" ? "FDF" : "API");

const FDF_FIELDS = ["strength", "formulation_md", "currency", "procurement_end_country", "comments"] as const;

const SalesBody = z
  .object({
    ...pageFields(CONSOLIDATED_PAGE_SIZES.sales),
    quarter_id: optionalId.meta({ description: "A quarter's id (quarter_filter of the answer); the open quarter when left out." }),
    partner_id: optionalId,
    product_id: optionalId,
    country_id: optionalId,
    year: z.number().int().min(1).max(9999).nullish(),
    month: z
      .union([z.number().int().min(1).max(12), z.enum(MONTHS)])
      .nullish()
      .meta({ description: "1 to 12, or the month's English name." }),
    purchaser: optionalText.meta({ description: "Part of the purchaser's name." }),
    report_status: z.enum(REPORT_STATES).nullish(),
    sort: z.enum(SALES_SORTS).nullish(),
    strength: optionalText.meta({ description: "FDF only: part of the strength." }),
    formulation_md: optionalId.meta({ description: "FDF only: a formulation type id." }),
    currency: z.string().max(10).nullish().meta({ description: "FDF only: a currency code." }),
    procurement_end_country: optionalText.meta({ description: "FDF only: part of the procurement end-country." }),
    comments: optionalText.meta({ description: "FDF only: part of the comments." }),
  })
  .meta({ id: "SalesReportQuery" });
type SalesBody = z.infer<typeof SalesBody>;

async function salesQuery(kind: SalesKind, body: SalesBody) {
  if (kind === "API") {
    const fdfOnly = FDF_FIELDS.filter((field) => body[field] !== undefined && body[field] !== null && body[field] !== "");
    if (fdfOnly.length) throw invalid(Object.fromEntries(fdfOnly.map((field) => [field, ["Only the FDF table has this filter."]])));
  }
  const quarter = body.quarter_id ? (await getQuarterById(body.quarter_id)).name : undefined;
  const month = typeof body.month === "string" ? MONTHS.indexOf(body.month) + 1 : body.month;
  return asPageQuery(salesConsolidatedQuery, {
    tab: kind,
    quarter,
    partner: body.partner_id,
    product: body.product_id,
    country: body.country_id,
    year: body.year,
    month,
    purchaser: body.purchaser,
    reportStatus: body.report_status,
    strength: body.strength,
    formulationType: body.formulation_md,
    currency: body.currency,
    procurementEndCountry: body.procurement_end_country,
    comments: body.comments,
    sort: body.sort,
    dir: body.dir,
    page: body.page_number,
  });
}

const SalesReport = z
  .object({
    ...pageAnswer,
    quarter_id: z.number().int(),
    table: z.enum(["API", "FDF"]),
    columns: z
      .array(z.object({ key: z.string(), label: z.string() }))
      .meta({ description: "The table's columns: the keys of each row's cells and their labels." }),
    rows: z.array(
      z
        .object({
          sales_report_id: z.number().int(),
          report_id: z.number().int(),
          company_name: z.string(),
          report_status: z.enum(REPORT_STATES),
          country_id: z.number().int().nullable().meta({ description: "The row's country (null: none)." }),
          product_id: z.number().int().nullable().meta({ description: "The row's product (null: a name awaiting verification, or none)." }),
        })
        .catchall(z.union([z.string(), z.number()]).nullable())
        .meta({ description: "The row's cells by column key, the spec's sales row fields, as the grid shows them (numbers as exact decimals)." }),
    ),
    quarter_filter: z.array(QuarterOption).meta({ description: "The open quarter first, then earlier ones; `quarter_id` is the body's `quarter_id`." }),
    partner_filter: z.array(PartnerOption),
    product_filter: z.array(ProductOption),
    country_filter: z.array(CountryOption),
    year_filter: z.array(ValueOption).meta({ description: "`id` is the body's `year`." }),
    month_filter: z.array(ValueOption).meta({ description: "`id` (1 to 12) or `name` is the body's `month`." }),
    purchaser_filter: z.array(z.string()),
    report_status_filter: z.array(z.string()),
    formulation_filter: z.array(ValueOption).meta({ description: "FDF: `id` is the body's `formulation_md`." }),
    currency_filter: z.array(z.string()),
  })
  .meta({ id: "SalesReport" });

async function salesAnswer(view: SalesConsolidatedView): Promise<z.infer<typeof SalesReport>> {
  const columns = columnsFor(view.tab);
  const { options } = view;
  // The view's quarter list has the names only; the body filters by quarter_id.
  const quarters = (await listQuartersUpTo(openQuarterRef())).reverse();
  return {
    ...pagedAnswer(view.page),
    quarter: view.quarter.name,
    quarter_id: view.quarter.id,
    table: view.tab,
    columns: columns.map((column) => ({ key: SALES_SPEC_FIELD[column.key], label: column.label })),
    rows: view.page.rows.map((row) => ({
      sales_report_id: row.id,
      report_id: row.reportId,
      company_name: row.companyName,
      report_status: row.reportStatus,
      country_id: row.countryId,
      product_id: row.productId,
      ...Object.fromEntries(columns.map((column) => [SALES_SPEC_FIELD[column.key], row[column.key] ?? ""])),
    })),
    quarter_filter: quarterOptions(quarters),
    partner_filter: partnerOptions(options.partners),
    product_filter: productOptions(options.products),
    country_filter: countryOptions(options.countries),
    year_filter: options.years,
    month_filter: options.months,
    purchaser_filter: options.purchasers,
    report_status_filter: [...options.statuses],
    formulation_filter: options.formulationTypes,
    currency_filter: options.currencies,
  };
}

// ---------------------------------------------------------------- the calls

const reportCall = callsUnder(TAG, ADMIN_AND_STAFF);

/** What every download call declares besides its path, body and handler. */
const DOWNLOAD = { method: "POST", query: FormatQuery, answer: FILE_ANSWER, errors: [400, 404] } as const;

export const REPORT_CALLS = [
  reportCall({
    method: "POST",
    path: "/report/pdt/",
    summary: "One page of the consolidated Development Timeline report of a quarter, filtered as on the report page.",
    body: PdtBody,
    answer: PdtReport,
    errors: [400, 404],
    example: { body: { page_number: 1, page_size: 50, quarter: "Q2 2026", partner_id: null, product_id: null, stages: null, status: "FILED" } },
    handle: async ({ body }) => pdtAnswer(await listPdtConsolidated(pdtQuery(body), { pageSize: body.page_size })),
  }),
  reportCall({
    ...DOWNLOAD,
    path: "/report/pdt/download/",
    summary: "Every row of the consolidated Development Timeline report the filters match, as pdt-report.xlsx (or pdt-report.csv).",
    body: PdtBody,
    example: { body: { quarter: "Q2 2026", partner_id: 1 } },
    handle: ({ body, query }) => pdtConsolidatedDownload(pdtQuery(body), query.format ?? "xlsx"),
  }),
  reportCall({
    method: "POST",
    path: "/report/filing/",
    summary: "One page of the consolidated Filing Plans report of a quarter: a row per partner and country, a status per product.",
    body: FilingBody,
    answer: FilingReport,
    errors: [400, 404],
    example: { body: { page_number: 1, page_size: 50, quarter: "Q2 2026", partner_id: null, country_id: null, product_status_dict: { "3": "Filed" } } },
    handle: async ({ body }) => filingAnswer(await listFilingConsolidated(filingQuery(body), { pageSize: body.page_size })),
  }),
  reportCall({
    ...DOWNLOAD,
    path: "/report/filing/download/",
    summary: "Every row of the consolidated Filing Plans report the filters match, as filing-plans.xlsx (or filing-plans.csv).",
    body: FilingBody,
    example: { body: { quarter: "Q2 2026", country_id: 12 } },
    handle: ({ body, query }) => filingConsolidatedDownload(filingQuery(body), query.format ?? "xlsx"),
  }),
  reportCall({
    method: "POST",
    path: "/report/sales/{x}",
    summary: "One page of the consolidated Sales report's API or FDF rows of a quarter, filtered as on the report page.",
    params: SalesParams,
    body: SalesBody,
    answer: SalesReport,
    errors: [400, 404],
    example: {
      body: {
        page_number: 1,
        page_size: 100,
        partner_id: null,
        product_id: null,
        country_id: null,
        quarter_id: null,
        year: 2026,
        month: 4,
        purchaser: "health",
      },
    },
    handle: async ({ params, body }) => salesAnswer(await listSalesConsolidated(await salesQuery(kindOf(params.x), body), { pageSize: body.page_size })),
  }),
  reportCall({
    ...DOWNLOAD,
    path: "/report/sales/download/{x}",
    summary: "Every API or FDF row of the consolidated Sales report the filters match, as sales-report-api.xlsx / sales-report-fdf.xlsx (or .csv).",
    params: SalesParams,
    body: SalesBody,
    example: { body: { year: 2026, currency: "USD" } },
    async handle({ params, query, body }) {
      const download = await openSalesDownload(await salesQuery(kindOf(params.x), body));
      return download.response(query.format ?? "xlsx");
    },
  }),
];
