import * as z from "zod";
import { REGIONS } from "~/db/reference-data";
import { MAX_ID, parseId } from "~/utils/ids";
import { emailField } from "./auth";
import { boundedText } from "./fields";
import { TEXT_MAX } from "~/utils/text-rules";
import { PROJECT_STATUSES } from "~/utils/project-status";

/**
 * The Add / Edit Partner form (spec section 2 and section 5 "Partner form"). One schema for the
 * browser (conform's instant validation) and the server (the action). Error texts are the spec's
 * English wording; they are also the translation keys.
 */

export const DEFAULT_CALLING_CODE = "+91";
export const CONTACT_DIGITS = 10;

export const PARTNER_MESSAGES = {
  companyName: "Please input Company name!",
  contactRequired: "Please input your Contact number!",
  contactDigitsOnly: "Contact should have only numbers!",
  contactTooShort: "Contact number too short!",
  contactTooLong: "Contact number too long!",
  prefix: "Please select a country code!",
  region: "Please select a Region!",
  product: "Please select product.",
  status: "Please enter status.",
  firstName: "Please enter first name.",
  lastName: "Please enter last name.",
  duplicateProduct: "This product is already listed.",
  duplicateEmail: "A partner or user with this e-mail already exists.",
  tooManyProducts: "A partner can list at most 500 products.",
  tooManyPeople: "A partner can list at most 50 people.",
} as const;

/** Rows a partner form can hold: products are also bounded by the catalogue (each listed once). */
export const PARTNER_PRODUCTS_MAX = 500;
export const PARTNER_PEOPLE_MAX = 50;

/**
 * The number after the prefix: required, digits only, exactly 10 digits ('Contact number too short!' /
 * 'Contact number too long!'); spaces a person types are tolerated and dropped.
 */
const contactNumberField = boundedText(TEXT_MAX.line, { missing: "Please input your Contact number!" })
  .transform((value) => value.replace(/\s+/g, ""))
  .pipe(
    z
      .string()
      .min(1, { error: "Please input your Contact number!", abort: true })
      .regex(/^\d+$/, { error: "Contact should have only numbers!", abort: true })
      .min(CONTACT_DIGITS, { error: "Contact number too short!" })
      .max(CONTACT_DIGITS, { error: "Contact number too long!" }),
  );

/** A calling code such as "+91"; the server also checks it against the countries table. */
const contactPrefixField = boundedText(TEXT_MAX.line, { missing: "Please select a country code!" })
  .trim()
  .regex(/^\+\d{1,4}$/, { error: "Please select a country code!" });

const requiredText = (message: string) => boundedText(TEXT_MAX.name, { missing: message }).trim().min(1, { error: message });
/** A record id as a form posts it: decimal digits only ("0x10" and "1e3" are not ids), a positive int4. */
const recordId = (message?: string) =>
  z.preprocess(
    (value) => (typeof value !== "string" ? value : value === "" ? undefined : (parseId(value) ?? Number.NaN)),
    z
      .number(message ? { error: message } : undefined)
      .int({ error: message })
      .positive({ error: message })
      .max(MAX_ID, { error: message }),
  );

const PartnerProductRowSchema = z.object({
  productId: recordId("Please select product."),
  status: z.enum(PROJECT_STATUSES, { error: "Please enter status." }),
});

const PartnerPersonRowSchema = z.object({
  /** The id of an existing person; new rows have none (the spec's employee_id 0). */
  employeeId: recordId().optional(),
  firstName: requiredText("Please enter first name."),
  lastName: requiredText("Please enter last name."),
  contactPrefix: contactPrefixField,
  contactNumber: contactNumberField,
});

export const PartnerSchema = z.object({
  companyName: requiredText("Please input Company name!"),
  email: emailField,
  contactPrefix: contactPrefixField,
  contactNumber: contactNumberField,
  address: boundedText(TEXT_MAX.note).trim().optional(),
  region: z.enum(REGIONS, { error: "Please select a Region!" }),
  products: z
    .array(PartnerProductRowSchema)
    .max(PARTNER_PRODUCTS_MAX, { error: PARTNER_MESSAGES.tooManyProducts })
    .superRefine((rows, ctx) => {
      const seen = new Set<number>();
      rows.forEach((row, index) => {
        if (seen.has(row.productId)) {
          ctx.addIssue({ code: "custom", message: "This product is already listed.", path: [index, "productId"] });
        }
        seen.add(row.productId);
      });
    }),
  people: z.array(PartnerPersonRowSchema).max(PARTNER_PEOPLE_MAX, { error: PARTNER_MESSAGES.tooManyPeople }),
});

/** The saved values (numbers parsed, text trimmed). */
export type PartnerInput = z.output<typeof PartnerSchema>;
/** The form's fields as conform sees them. */
export type PartnerFormInput = z.input<typeof PartnerSchema>;

/** "+919876543210" → { prefix: "+91", number: "9876543210" }: the last 10 digits are the number. */
export function splitContactNumber(stored: string | null | undefined): { prefix: string; number: string } {
  const value = (stored ?? "").replace(/\s+/g, "");
  if (value.length <= CONTACT_DIGITS) return { prefix: DEFAULT_CALLING_CODE, number: value };
  return { prefix: value.slice(0, -CONTACT_DIGITS), number: value.slice(-CONTACT_DIGITS) };
}

export function joinContactNumber(prefix: string, number: string) {
  return `${prefix}${number}`;
}
