/**
 * The rules of a partner's licence terms: one schema for the Licence Terms form (conform in the
 * browser, the action on the server) and for the JSON API, which hands its body to it under the
 * form's names. Error texts are English; they are also the translation keys.
 */
import * as z from "zod";
import { PARTNER_MESSAGES, PARTNER_PRODUCTS_MAX } from "~/schemas/partner";
import { parseId } from "~/utils/ids";
import { BAD_REQUEST } from "~/utils/messages";

const LICENCE_MESSAGES = {
  rateRequired: "Please enter a royalty rate.",
  rateNotANumber: "Enter the rate as a number, such as 5 or 3.25.",
  rateRange: "The rate must be between 0 and 100.",
  rateDecimals: "Use at most 4 decimals.",
  defaultRateRequired: "Please enter the default royalty rate: this product has country exceptions or an API licence.",
  countryRequired: "Please select a country.",
  unknownCountry: "Unknown country.",
  duplicateCountry: "This country is already listed for this product.",
  notLicensedRate: "A country that is not licensed has no rate.",
  unknownProduct: "This product is not one of the partner's products.",
  duplicateProduct: "This product is listed twice.",
  tooManyCountries: "A product can list at most 300 countries.",
} as const;

/** Country exceptions one product may list (there are 250 countries). */
export const LICENCE_COUNTRIES_MAX = 300;

/** The stored scale of a rate (numeric(9,4)). */
const RATE_DECIMALS = 4;
const PLAIN_DECIMAL = /^(\d+)?(?:\.(\d*))?$/;

/**
 * A rate in percent as typed: a plain decimal ("5", "3.25", ".5"; no sign, exponent or separator)
 * from 0 to 100 with at most 4 decimals. Returns its canonical text ("05.50" → "5.5", the text
 * PostgreSQL's trim_scale gives of the stored value), or what is wrong with it. Decided on the
 * digits alone: no floating point.
 */
function parseRoyaltyRate(text: string): { rate: string } | { problem: string } {
  const value = text.trim();
  if (!value) return { problem: LICENCE_MESSAGES.rateRequired };
  if (value.startsWith("-") && PLAIN_DECIMAL.test(value.slice(1))) return { problem: LICENCE_MESSAGES.rateRange };
  const match = PLAIN_DECIMAL.exec(value);
  if (!match || value === ".") return { problem: LICENCE_MESSAGES.rateNotANumber };
  const whole = (match[1] ?? "").replace(/^0+/, "");
  const fraction = (match[2] ?? "").replace(/0+$/, "");
  if (whole.length > 3 || Number(whole) > 100 || (whole === "100" && fraction)) return { problem: LICENCE_MESSAGES.rateRange };
  if (fraction.length > RATE_DECIMALS) return { problem: LICENCE_MESSAGES.rateDecimals };
  return { rate: fraction ? `${whole || "0"}.${fraction}` : whole || "0" };
}

/**
 * A royalty rate field: its canonical text. A refusal lets the rules of the rows around it run on
 * (`continue`), so that one save names every problem of the page.
 */
const royaltyRateField = z.string({ error: LICENCE_MESSAGES.rateRequired }).transform((text, ctx) => {
  const parsed = parseRoyaltyRate(text);
  if ("rate" in parsed) return parsed.rate;
  ctx.addIssue({ code: "custom", message: parsed.problem, continue: true });
  return z.NEVER;
});

/** A record id as a form posts it or JSON sends it (parseId's rule); anything else is `message`. */
const recordIdField = (message: string) =>
  z.custom<string | number>().transform((value, ctx) => {
    const id = parseId(value);
    if (id !== null) return id;
    ctx.addIssue({ code: "custom", message, continue: true });
    return z.NEVER;
  });

/** A row of a product's country exceptions; a row left blank (no country, rate or tick) is no exception. */
const CountryExceptionSchema = z.object({
  countryId: recordIdField(LICENCE_MESSAGES.unknownCountry).optional(),
  royaltyRate: royaltyRateField.optional(),
  notLicensed: z.boolean().optional(),
});

type CountryException = z.output<typeof CountryExceptionSchema>;
const isBlank = (row: CountryException) => row.countryId === undefined && row.royaltyRate === undefined && !row.notLicensed;

/** A product's terms: no default rate (and nothing else) means the product has none. */
const ProductTermsSchema = z
  .object({
    productId: recordIdField(LICENCE_MESSAGES.unknownProduct),
    royaltyRate: royaltyRateField.optional(),
    apiLicensed: z.boolean().optional(),
    countries: z.array(CountryExceptionSchema).max(LICENCE_COUNTRIES_MAX, { error: LICENCE_MESSAGES.tooManyCountries }).default([]),
  })
  .superRefine((product, ctx) => {
    const seen = new Set<number>();
    product.countries.forEach((row, index) => {
      if (isBlank(row)) return;
      const at = (field: keyof CountryException, message: string) => ctx.addIssue({ code: "custom", message, path: ["countries", index, field] });
      if (row.countryId === undefined) at("countryId", LICENCE_MESSAGES.countryRequired);
      else if (seen.has(row.countryId)) at("countryId", LICENCE_MESSAGES.duplicateCountry);
      // A refused id or rate (already named) is no number or text here.
      else if (typeof row.countryId === "number") seen.add(row.countryId);
      if (row.notLicensed && typeof row.royaltyRate === "string") at("royaltyRate", LICENCE_MESSAGES.notLicensedRate);
      if (!row.notLicensed && row.royaltyRate === undefined) at("royaltyRate", LICENCE_MESSAGES.rateRequired);
    });
    if (product.royaltyRate === undefined && (product.apiLicensed || !product.countries.every(isBlank))) {
      ctx.addIssue({ code: "custom", message: LICENCE_MESSAGES.defaultRateRequired, path: ["royaltyRate"] });
    }
  });

/**
 * The whole Licence Terms form: whose terms (the page's partner; a post without it, an empty body
 * say, is refused rather than read as "no product has terms") and a section per product.
 */
export const LicenceTermsSchema = z.object({
  partnerId: recordIdField(BAD_REQUEST),
  products: z
    .array(ProductTermsSchema)
    .max(PARTNER_PRODUCTS_MAX, { error: PARTNER_MESSAGES.tooManyProducts })
    .superRefine((products, ctx) => {
      const seen = new Set<number>();
      products.forEach((product, index) => {
        if (typeof product.productId !== "number") return;
        if (seen.has(product.productId)) ctx.addIssue({ code: "custom", message: LICENCE_MESSAGES.duplicateProduct, path: [index, "productId"] });
        seen.add(product.productId);
      });
    }),
});

/** The form's fields as conform sees them. */
export type LicenceTermsFormInput = z.input<typeof LicenceTermsSchema>;
export type LicenceTermsValue = z.output<typeof LicenceTermsSchema>;

/** A partner's terms as the model saves them: only the products that have terms, each country exception filled in. */
export interface LicenceTermsInput {
  products: {
    productId: number;
    royaltyRate: string;
    apiLicensed: boolean;
    countries: { countryId: number; royaltyRate: string | null; isLicensed: boolean }[];
  }[];
}

export function licenceTermsInput(value: LicenceTermsValue): LicenceTermsInput {
  return {
    products: value.products.flatMap((product) =>
      product.royaltyRate === undefined
        ? []
        : [
            {
              productId: product.productId,
              royaltyRate: product.royaltyRate,
              apiLicensed: Boolean(product.apiLicensed),
              countries: product.countries.flatMap((row) =>
                row.countryId === undefined
                  ? []
                  : [{ countryId: row.countryId, royaltyRate: row.notLicensed ? null : (row.royaltyRate ?? null), isLicensed: !row.notLicensed }],
              ),
            },
          ],
    ),
  };
}

/** What the model refused: products that are not the partner's, countries that do not exist (by id). */
export interface LicenceRefusal {
  products: number[];
  countries: number[];
}

/** The model's refusal as field errors of the value it was made from (`products[0].countries[1].countryId`). */
export function licenceRefusalErrors(value: LicenceTermsValue, refused: LicenceRefusal): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  value.products.forEach((product, index) => {
    if (refused.products.includes(product.productId)) errors[`products[${index}].productId`] = [LICENCE_MESSAGES.unknownProduct];
    product.countries.forEach((row, rowIndex) => {
      if (row.countryId !== undefined && refused.countries.includes(row.countryId)) {
        errors[`products[${index}].countries[${rowIndex}].countryId`] = [LICENCE_MESSAGES.unknownCountry];
      }
    });
  });
  return errors;
}
