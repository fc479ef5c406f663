import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import licenceStyles from "~/licences/licence-terms.css";
import { LicenceTermsPage } from "~/licences/licence-terms-page";
import { loadLicenceTermsPage, saveLicenceTermsForm } from "~/licences/page.server";
import { stylesheetLinks } from "~/reports/consolidated/page-links";
import { requireAdminOrStaff, requireRole } from "~/utils/auth.server";
import { idParam } from "~/utils/params.server";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "Licence Terms" };
export const links = stylesheetLinks(licenceStyles);

/** A partner's licence terms (`$id`: the partner's id): ADMIN edits, STAFF reads. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireAdminOrStaff(request);
  return loadLicenceTermsPage(idParam(params.id), user.role === "ADMIN" ? "admin" : "staff");
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requireRole(request, "ADMIN");
  return saveLicenceTermsForm(request, idParam(params.id), { actorId: user.id, requestId: context.requestId });
}

export default function AdminLicenceTerms() {
  return <LicenceTermsPage {...useLoaderData<typeof loader>()} lastResult={useActionData<typeof action>()} />;
}
