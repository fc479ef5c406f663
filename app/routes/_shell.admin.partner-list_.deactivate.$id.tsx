import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { DeactivateConfirmation } from "~/components/deactivate-confirmation";
import { PageHeader } from "~/components/page-header";
import { getPartnerSummary } from "~/models/partner-list.server";
import { requireRole } from "~/utils/auth.server";
import { partnerListHref, parsePartnerListQuery } from "~/utils/partner-list";
import { parseId } from "~/utils/ids";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "Partner List" };

/**
 * The deactivation question without JavaScript (with it, the list asks in a dialog). Yes posts to
 * the list's action; No goes back to the list in the state it was left.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, "ADMIN");
  const query = parsePartnerListQuery(new URL(request.url).searchParams);
  const id = parseId(params.id);
  const partner = id ? await getPartnerSummary(id) : undefined;
  if (!partner) throw redirect("/error-404");
  if (!partner.isActive) throw redirect(partnerListHref(query));
  return { partner: { id: partner.id, companyName: partner.companyName }, back: partnerListHref(query) };
}

export default function DeactivatePartnerPage() {
  const { t } = useTranslation();
  const { partner, back } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader title={t("Partner List")} />
      <section className="card card--narrow">
        <DeactivateConfirmation name={partner.companyName} idField="partnerId" id={partner.id} action={back} cancelTo={back} />
      </section>
    </>
  );
}
