/** The actions of the Add/Edit Partner and Add/Edit Product forms: read the form, save it, and go back to the list with a toast. */
import { data } from "@remix-run/node";
import type * as z from "zod";
import { PartnerSchema, type PartnerInput } from "~/schemas/partner";
import { productSaveFieldErrors } from "~/schemas/product";
import { readFormSubmission } from "~/utils/form-data.server";
import { redirectWithToast } from "~/utils/toast.server";
import { splitFieldErrors, type SaveResult } from "./partner.server";
import type { ProductSaveResult } from "./product.server";

export const partnerNotFound = () => data({ message: "Oops, an error has occurred. Page not found!" }, { status: 404 });
export const productNotFound = () => new Response("Not Found", { status: 404 });

/** `save` answers null for a partner that does not exist. */
export async function savePartnerForm(request: Request, save: (value: PartnerInput) => Promise<SaveResult | null>, savedMessage: string) {
  const submission = await readFormSubmission(request, PartnerSchema);
  // Add and Remove row buttons (without JavaScript) come back with the changed form, unsaved.
  if (submission.status === undefined) return submission.reply();
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const result = await save(submission.value);
  if (!result) throw partnerNotFound();
  if (!result.ok) return data(submission.reply(splitFieldErrors(result.fieldErrors)), { status: 400 });
  return redirectWithToast("/admin/partner-list", { type: "success", message: savedMessage });
}

export async function saveProductForm<Schema extends z.ZodType>(
  request: Request,
  schema: Schema,
  save: (value: z.output<Schema>) => Promise<ProductSaveResult>,
  savedMessage: string,
) {
  const submission = await readFormSubmission(request, schema);
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const result = await save(submission.value);
  if (!result.ok) {
    if (result.reason === "not-found") throw productNotFound();
    return data(submission.reply({ fieldErrors: productSaveFieldErrors(result.reason) }), { status: 400 });
  }
  return redirectWithToast("/admin/product-list", { type: "success", message: savedMessage });
}
