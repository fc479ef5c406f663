import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import licenceStyles from "~/licences/licence-terms.css";
import { LicenceTermsPage } from "~/licences/licence-terms-page";
import { loadLicenceTermsPage } from "~/licences/page.server";
import { stylesheetLinks } from "~/reports/consolidated/page-links";
import { requirePartner } from "~/utils/auth.server";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "Licence Terms" };
export const links = stylesheetLinks(licenceStyles);

/** The signed-in partner's own licence terms, read-only: no id is read from the request. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requirePartner(request);
  return loadLicenceTermsPage(user.partnerId, "partner");
}

export default function PartnerLicenceTerms() {
  return <LicenceTermsPage {...useLoaderData<typeof loader>()} />;
}
