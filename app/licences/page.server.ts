/** The Licence Terms screen: what its loader answers and what its Save does. */
import { data } from "@remix-run/node";
import { partnerNotFound } from "~/models/admin-forms.server";
import { listCountries } from "~/models/partner.server";
import { readFormSubmission } from "~/utils/form-data.server";
import { BAD_REQUEST } from "~/utils/messages";
import { redirectWithToast } from "~/utils/toast.server";
import { getPartnerLicence, saveLicenceTerms, type PartnerLicence } from "./licences.server";
import { LicenceTermsSchema, licenceRefusalErrors, licenceTermsInput, type LicenceTermsFormInput } from "./schema";

/** Who looks: an administrator edits, staff reads with every control disabled, a partner reads its own. */
export type LicenceViewer = "admin" | "staff" | "partner";

export const LICENCE_TERMS_SAVED = "Licence terms saved successfully!";

const adminLicencePath = (partnerId: number) => `/admin/licence-terms/${partnerId}`;

/** The stored terms as the form's fields. */
function formValues(licence: PartnerLicence): LicenceTermsFormInput {
  return {
    partnerId: String(licence.partner.id),
    products: licence.products.map((product) => ({
      productId: String(product.id),
      royaltyRate: product.terms?.royaltyRate,
      apiLicensed: product.terms?.apiLicensed,
      countries: (product.terms?.countries ?? []).map((row) => ({
        countryId: String(row.countryId),
        royaltyRate: row.royaltyRate ?? undefined,
        notLicensed: !row.isLicensed,
      })),
    })),
  };
}

/** The screen of partner `partnerId`'s terms; an unknown partner is not found. */
export async function loadLicenceTermsPage(partnerId: number, viewer: LicenceViewer) {
  const [licence, countryRows] = await Promise.all([getPartnerLicence(partnerId), listCountries()]);
  if (!licence) throw partnerNotFound();
  return {
    partner: licence.partner,
    products: licence.products.map(({ id, name, category, active }) => ({ id, name, category, active })),
    countries: countryRows.map(({ id, name }) => ({ id, name })),
    defaultValue: formValues(licence),
    version: licence.version,
    viewer,
  };
}

/**
 * Save (one transaction), or an Add or Remove row button of the form without JavaScript (the
 * form comes back with the row, unsaved). A refusal names the fields and saves nothing.
 */
export async function saveLicenceTermsForm(request: Request, partnerId: number, actor: { actorId: number; requestId?: string | null }) {
  const submission = await readFormSubmission(request, LicenceTermsSchema);
  if (submission.status === undefined) return submission.reply();
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  // A form of another partner's page (an old tab, a crafted post) saves nothing here.
  if (submission.value.partnerId !== partnerId) return data(submission.reply({ formErrors: [BAD_REQUEST] }), { status: 400 });
  const result = await saveLicenceTerms(partnerId, licenceTermsInput(submission.value), actor);
  if (!result) throw partnerNotFound();
  if (!result.ok) return data(submission.reply({ fieldErrors: licenceRefusalErrors(submission.value, result.refused) }), { status: 400 });
  return redirectWithToast(adminLicencePath(partnerId), { type: "success", message: LICENCE_TERMS_SAVED });
}
