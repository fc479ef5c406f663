/**
 * Filing Plans by machine: read, save, submit, decide, read messages. `/template/filing/` is the
 * signed-in partner's own report, `/template/filing/{partnerId}/` a partner's report as an
 * administrator sees it; `?quarter=` picks an earlier quarter. A read answers spec §3's shape (a row
 * per country with a status per product name, product_details, filing_meta, status_dropdown); a
 * save takes spec §7's map of country id to product id to status, or that answer posted back. The
 * rules are the Filing Plans screen's: loadFilingPlan, filingCellsFromMap and saveFilingPlan,
 * decideReport, markReportMessagesRead.
 */
import * as z from "zod";
import {
  FILING_POSTED_REFUSALS,
  filingCellsFromMap,
  listFilingCountries,
  loadFilingPlan,
  saveFilingPlan,
  type FilingPlanView,
  type FilingPostedCell,
} from "~/reports/filing/model.server";
import { partnerActiveProducts } from "~/reports/sales/product-verification.server";
import { resolveQuarter, ROWS_NOT_IN_REPORT } from "~/reports/frame/screen.server";
import { WorkflowError } from "~/reports/frame/workflow.server";
import { FILING_MAX_COUNTRIES, FILING_MAX_PRODUCTS, FILING_STATUS_MAX_CHARS } from "~/reports/filing/contract";
import { FILING_EMPTY } from "~/reports/filing/statuses";
import { invalid, type ApiCall } from "~/api/call.server";
import {
  frameAnswer,
  frameShape,
  ReportMetaSchema,
  reportChangesCalls,
  reportThreadsCalls,
  reportMeta,
  reportTemplateCalls,
  type TemplateSaveInput,
} from "~/reports/frame/api.server";

const Status = z.string().max(FILING_STATUS_MAX_CHARS).nullable();

const FilingRowSchema = z.object({ country_id: z.number().int(), country: z.string() }).catchall(Status).meta({
  id: "FilingRow",
  description: "A country's row: each product_name of product_details is a key, its value the cell's status, null for an empty cell.",
});

const FilingProductSchema = z
  .object({ product_id: z.number().int(), product_name: z.string(), product_type: z.enum(["API", "FDF"]) })
  .meta({ id: "FilingProduct" });

const FilingTemplate = z
  .object({
    ...frameShape,
    filing_meta: ReportMetaSchema,
    product_details: z.array(FilingProductSchema).max(FILING_MAX_PRODUCTS).meta({ description: "The partner's active products: the grid's columns, by name." }),
    status_dropdown: z
      .object({ API: z.array(z.string()), FDF: z.array(z.string()) })
      .meta({ description: "The statuses a cell may hold, by its product's type, for the quarter." }),
    carried_over_from: z
      .string()
      .nullable()
      .meta({ description: "The quarter whose plan is shown because this quarter's report has not been saved yet (null: its own)." }),
    rows: z.array(FilingRowSchema).max(FILING_MAX_COUNTRIES).meta({ description: "A row per country, by name." }),
  })
  .meta({ id: "FilingTemplate" });

function template(view: FilingPlanView): z.infer<typeof FilingTemplate> {
  return {
    ...frameAnswer(view),
    filing_meta: reportMeta(view),
    product_details: view.products.map((product) => ({ product_id: product.id, product_name: product.name, product_type: product.category })),
    status_dropdown: view.statusLists,
    carried_over_from: view.carriedOverFrom,
    rows: view.rows.map((row) =>
      Object.assign(Object.fromEntries(view.products.map((product) => [product.name, row.cells[product.id] === FILING_EMPTY ? null : row.cells[product.id]])), {
        country_id: row.countryId,
        country: row.country,
      }),
    ),
  };
}

/** The read answer's fields, all optional, and `version`; any other key is a country id. */
const FilingSaveFields = FilingTemplate.partial().extend({
  version: z
    .number()
    .int()
    .min(0)
    .optional()
    .meta({ description: "filing_meta.version as read; when left out, filing_meta.version if sent (neither: no check)." }),
});

/**
 * A country id's cells, checked by filingCellsFromMap (which names the first wrong one) rather
 * than here: a body of thousands of wrong keys is refused in one line, not one per key. The meta
 * documents the object it must be.
 */
const CountryCells = z.unknown().meta({
  description: "A country id's cells: product id to status.",
  type: "object",
  additionalProperties: { type: ["string", "null"], maxLength: FILING_STATUS_MAX_CHARS },
});

// Country ids are keys no schema can declare: the catchall takes them (and checks them, in postedCells).
const FilingSaveBody = FilingSaveFields.catchall(CountryCells).meta({
  id: "FilingSaveBody",
  description:
    `Spec §7's map of country id to product id to status, the changed cells only, and \`version\`; or the read answer posted back, its \`rows\` keyed by the product_name of its \`product_details\` (its other fields are ignored). ` +
    `"", "${FILING_EMPTY}" or null empties a cell; a status is one of status_dropdown for the product's type, in any case.`,
});
type FilingSaveBody = z.infer<typeof FilingSaveBody>;

const SAVE_EXAMPLE = { version: 1, "12": { "3": "Filed", "5": null } };

/** A posted cell, with the keys of the body that name it and its country. */
interface NamedCell extends FilingPostedCell {
  key: string;
  countryKey: string;
}

/** The body's cells: its country-id keys, then its `rows` by the product names of its `product_details`. */
function postedCells(body: FilingSaveBody): NamedCell[] {
  const map = Object.fromEntries(Object.entries(body).filter(([key]) => !Object.hasOwn(FilingSaveFields.shape, key)));
  const posted = filingCellsFromMap(map);
  if (!posted.ok) throw invalid({ [posted.path.join(".")]: [FILING_POSTED_REFUSALS[posted.reason]] });
  const cells = posted.cells.map((cell) => ({ ...cell, key: `${cell.countryId}.${cell.productId}`, countryKey: String(cell.countryId) }));
  const productIds = new Map((body.product_details ?? []).map((product) => [product.product_name, product.product_id]));
  body.rows?.forEach(({ country_id: countryId, country: _country, ...statuses }, index) => {
    for (const [name, status] of Object.entries(statuses)) {
      const productId = productIds.get(name);
      if (productId === undefined) throw invalid({ [`rows.${index}.${name}`]: ["Not a product_name of product_details."] });
      cells.push({ countryId, productId, status: status ?? "", key: `rows.${index}.${name}`, countryKey: `rows.${index}.country_id` });
    }
  });
  return cells;
}

/**
 * The model refuses a cell outside the partner's grid without naming it: the cell's key is found
 * here, on that refusal only, so that a save reads the grid once.
 */
async function nameCellOutsideGrid(partnerId: number, cells: NamedCell[]) {
  const [countries, products] = await Promise.all([listFilingCountries(), partnerActiveProducts(partnerId)]);
  const countryIds = new Set(countries.map((country) => country.id));
  const productIds = new Set(products.map((product) => product.id));
  const outside = cells.find((cell) => !countryIds.has(cell.countryId) || !productIds.has(cell.productId));
  if (!outside) return;
  throw countryIds.has(outside.countryId)
    ? invalid({ [outside.key]: ["Not one of this partner's products."] })
    : invalid({ [outside.countryKey]: [FILING_POSTED_REFUSALS.countryKey] });
}

/** A save, or a submission that saves first, of the partner's Filing Plans in the quarter asked for. */
async function save({ user, partnerId, quarterName, body, action, comment, requestId }: TemplateSaveInput<FilingSaveBody>) {
  const quarter = await resolveQuarter(quarterName);
  const cells = postedCells(body);
  const expectedVersion = body.version ?? body.filing_meta?.version;
  const saved = await saveFilingPlan({ actor: user, partnerId, quarterId: quarter.id, expectedVersion, cells, action, comment, requestId }).catch(
    async (error: unknown) => {
      if (error instanceof WorkflowError && error.message === ROWS_NOT_IN_REPORT) await nameCellOutsideGrid(partnerId, cells);
      throw error;
    },
  );
  if (!saved.ok) {
    // The problems name rows by the country's place in the grid, columns by product id.
    const countries = await listFilingCountries();
    const keys = new Map(cells.map((cell) => [`${cell.countryId}:${cell.productId}`, cell.key]));
    const errors: Record<string, string[]> = {};
    for (const problem of saved.problems) {
      const countryId = countries[problem.rowNumber - 1]?.id;
      problem.keys.forEach((productId, index) => {
        errors[keys.get(`${countryId}:${productId}`)!] = [`${problem.columns[index]}: not a status of this product's list.`];
      });
    }
    throw invalid(errors);
  }
  return saved;
}

export const FILING_CALLS: ApiCall[] = [
  ...reportTemplateCalls({
    type: "filing",
    template: FilingTemplate,
    load: loadFilingPlan,
    answer: template,
    saveBody: FilingSaveBody,
    emptySave: (version) => ({ version }),
    maxBodyBytes: 16 * 1024 * 1024,
    save,
    summaries: {
      save: "Saves the caller's cells. Nothing is saved when a status is not one of its product's list.",
      adminSave: "An administrator saves a partner's cells (any quarter, with ?quarter=).",
      submit: "Submits the caller's Filing Plans of the open quarter to the administrators, with a comment.",
    },
    examples: { save: SAVE_EXAMPLE, submit: { message: "Filing plans updated.", version: 1 } },
  }),
  ...reportThreadsCalls("filing", { table: "Filing", body: "Which agency received this filing, and when?" }),
  ...reportChangesCalls("filing"),
];
