/**
 * Licence terms by machine: GET reads a partner's terms (administrators and staff any partner's, a
 * partner its own), PUT saves them as GET answers them (administrators). The body goes through the
 * Licence Terms form's schema under the form's names, and is saved by the screen's model function.
 */
import * as z from "zod";
import { ALL_ROLES, ApiError, invalid, notFound, PartnerParams, signedInCall, type ApiCall } from "~/api/call.server";
import { NOT_AUTHORIZED } from "~/utils/messages";
import { getPartnerLicence, saveLicenceTerms, type PartnerLicence } from "./licences.server";
import { LICENCE_TERMS_SAVED } from "./page.server";
import { LicenceTermsSchema, licenceRefusalErrors, licenceTermsInput, type LicenceTermsFormInput, type LicenceTermsValue } from "./schema";

const TAG = "Licence terms";
const PARTNER_NOT_FOUND = "Partner not found.";

const readOnly = { description: "Read-only: sent back as read, it is ignored." };

const countryFields = {
  country_id: z.number().int(),
  royalty_rate: z
    .string()
    .nullable()
    .meta({ description: "This country's rate in percent (0: royalty-free), replacing the default; null where it is not licensed.", example: "0" }),
  is_licensed: z.boolean().meta({ description: "false: the country is outside the territory (sales there are not licensed)." }),
};

const productFields = {
  product_id: z.number().int(),
  royalty_rate: z.string().meta({ description: "The default royalty rate in percent, 0 to 100, at most 4 decimals.", example: "5" }),
  api_licensed: z.boolean().meta({ description: "Whether the partner may sell the API (active ingredient) of this product." }),
};

const LicenceTermsAnswer = z
  .object({
    partner_id: z.number().int(),
    products: z
      .array(
        z.object({
          ...productFields,
          product_name: z.string(),
          countries: z.array(z.object({ ...countryFields, country_name: z.string() }).meta({ id: "LicenceCountryTerm" })),
        }),
      )
      .meta({ description: "The partner's products that have terms (a product without terms is left out)." }),
  })
  .meta({ id: "LicenceTerms" });

const LicenceTermsBody = z
  .object({
    partner_id: z.number().int().optional().meta({ description: "The partner of the path, when sent." }),
    products: z
      .array(
        z.object({
          ...productFields,
          product_name: z.string().optional().meta(readOnly),
          countries: z.array(z.object({ ...countryFields, country_name: z.string().optional().meta(readOnly) })),
        }),
      )
      .meta({ description: "Every product that has terms: the terms of the partner's products left out are removed." }),
  })
  .meta({ id: "LicenceTermsBody", description: "The terms as GET answers them: change what is needed and send them back." });

const LicenceTermsSaved = z.object({ status: z.literal("OK"), detail: z.string(), partner_id: z.number().int() }).meta({ id: "LicenceTermsSaved" });

function answer(licence: PartnerLicence): z.infer<typeof LicenceTermsAnswer> {
  return {
    partner_id: licence.partner.id,
    products: licence.products.flatMap(({ id, name, terms }) =>
      terms
        ? [
            {
              product_id: id,
              product_name: name,
              royalty_rate: terms.royaltyRate,
              api_licensed: terms.apiLicensed,
              countries: terms.countries.map((row) => ({
                country_id: row.countryId,
                country_name: row.countryName,
                royalty_rate: row.royaltyRate,
                is_licensed: row.isLicensed,
              })),
            },
          ]
        : [],
    ),
  };
}

/** The form's field names as the body names them. */
const BODY_NAMES: Record<string, string> = {
  productId: "product_id",
  royaltyRate: "royalty_rate",
  apiLicensed: "api_licensed",
  countryId: "country_id",
  notLicensed: "is_licensed",
};

/** A form field's path ("products[0].countries[1].countryId" or its segments) under the body's names. */
const bodyPath = (path: string | PropertyKey[]) =>
  (typeof path === "string" ? path.split(/[.[\]]+/).filter(Boolean) : path.map(String)).map((segment) => BODY_NAMES[segment] ?? segment).join(".");

/** The body checked by the form's rules: the form's value, or a 400 naming the body's fields. */
function formValue(partnerId: number, body: z.infer<typeof LicenceTermsBody>): LicenceTermsValue {
  const fields: LicenceTermsFormInput = {
    partnerId,
    products: body.products.map((product) => ({
      productId: product.product_id,
      royaltyRate: product.royalty_rate,
      apiLicensed: product.api_licensed,
      countries: product.countries.map((row) => ({ countryId: row.country_id, royaltyRate: row.royalty_rate ?? undefined, notLicensed: !row.is_licensed })),
    })),
  };
  const result = LicenceTermsSchema.safeParse(fields);
  if (result.success) return result.data;
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues) (errors[bodyPath(issue.path)] ??= []).push(issue.message);
  throw invalid(errors);
}

export const LICENCE_CALLS: ApiCall[] = [
  signedInCall({
    method: "GET",
    path: "/licence_terms/{partnerId}",
    summary: "A partner's licence terms: per product the default royalty rate, the API licence and the countries with another rate or outside the territory.",
    tag: TAG,
    access: ALL_ROLES,
    params: PartnerParams,
    answer: LicenceTermsAnswer,
    errors: [400, 404],
    async handle({ user, params }) {
      // A partner reads its own terms only.
      if (user.role === "PARTNER" && user.partnerId !== params.partnerId) throw new ApiError(403, { status: "forbidden", detail: NOT_AUTHORIZED });
      const licence = await getPartnerLicence(params.partnerId);
      if (!licence) throw notFound(PARTNER_NOT_FOUND);
      return answer(licence);
    },
  }),
  signedInCall({
    method: "PUT",
    path: "/licence_terms/{partnerId}",
    summary:
      "Saves a partner's licence terms as GET answers them, in one change: products left out have no terms; only the partner's products and known countries are taken.",
    tag: TAG,
    access: ["ADMIN"],
    params: PartnerParams,
    body: LicenceTermsBody,
    maxBodyBytes: 256 * 1024,
    answer: LicenceTermsSaved,
    errors: [400, 404],
    example: {
      // Dolutegravir 50 mg of the demo partner Acme Generics Ltd; the countries' ids as the seed numbers them.
      body: {
        partner_id: 1,
        products: [
          {
            product_id: 1,
            product_name: "Dolutegravir 50 mg",
            royalty_rate: "5",
            api_licensed: true,
            countries: [
              { country_id: 133, country_name: "Malawi", royalty_rate: "0", is_licensed: true },
              { country_id: 32, country_name: "Brazil", royalty_rate: null, is_licensed: false },
            ],
          },
        ],
      },
    },
    async handle({ user, params, body, context }) {
      if (body.partner_id !== undefined && body.partner_id !== params.partnerId) throw invalid({ partner_id: ["Not the partner of the path."] });
      const value = formValue(params.partnerId, body);
      const result = await saveLicenceTerms(params.partnerId, licenceTermsInput(value), { actorId: user.id, requestId: context.requestId });
      if (!result) throw notFound(PARTNER_NOT_FOUND);
      if (!result.ok) {
        const errors = Object.entries(licenceRefusalErrors(value, result.refused)).map(([path, messages]) => [bodyPath(path), messages]);
        throw invalid(Object.fromEntries(errors));
      }
      return { status: "OK", detail: LICENCE_TERMS_SAVED, partner_id: params.partnerId };
    },
  }),
];
