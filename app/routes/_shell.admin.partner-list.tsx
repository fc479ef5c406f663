import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PageHeader } from "~/components/page-header";
import { Pager } from "~/components/pager";
import { PartnerListTable } from "~/components/partner-list-table";
import { PartnerListToolbar } from "~/components/partner-list-toolbar";
import { RemindEveryoneControl } from "~/components/remind-everyone";
import { deactivatePartner, listPartners, reactivatePartner } from "~/models/partner-list.server";
import { requireAdminOrStaff, requireRole } from "~/utils/auth.server";
import { readForm } from "~/utils/form-data.server";
import { parseId } from "~/utils/ids";
import { PARTNER_LIST_PAGE_SIZE, partnerListHref, parsePartnerListQuery } from "~/utils/partner-list";
import { redirectWithToast } from "~/utils/toast.server";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "Partner List" };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireAdminOrStaff(request);
  const query = parsePartnerListQuery(new URL(request.url).searchParams);
  const { quarterName, rows, page } = await listPartners(query, { pageSize: PARTNER_LIST_PAGE_SIZE });
  return { quarterName, rows, page, query: { ...query, page: page.page }, canEdit: user.role === "ADMIN" };
}

/** `intent=deactivate|reactivate` with `partnerId`; back to the list in the state it was posted from. */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireRole(request, "ADMIN");
  const form = await readForm(request);
  const intent = form.get("intent");
  const partnerId = parseId(form.get("partnerId"));
  if ((intent !== "deactivate" && intent !== "reactivate") || !partnerId) {
    throw new Response("Bad Request", { status: 400 });
  }
  const actor = { actorId: user.id, requestId: context.requestId };
  const result = intent === "deactivate" ? await deactivatePartner(partnerId, actor) : await reactivatePartner(partnerId, actor);
  if (result === "not-found") throw redirect("/error-404");
  const back = partnerListHref(parsePartnerListQuery(new URL(request.url).searchParams));
  return redirectWithToast(back, {
    type: "success",
    message: intent === "deactivate" ? "Partner successfully removed!" : "Partner reactivated!",
  });
}

export default function PartnerListPage() {
  const { t } = useTranslation();
  const { quarterName, rows, page, query, canEdit } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader title={t("Partner List")}>
        <RemindEveryoneControl query={query} canEdit={canEdit} />
        {canEdit ? (
          <Link to="/admin/add-partner" className="button button--primary">
            {t("Add Partner")}
          </Link>
        ) : (
          <button type="button" className="button button--primary" disabled>
            {t("Add Partner")}
          </button>
        )}
      </PageHeader>
      <section className="card partner-list">
        <PartnerListToolbar query={query} quarterName={quarterName} />
        <PartnerListTable rows={rows} query={query} canEdit={canEdit} />
        <Pager page={page.page} pages={page.pages} pageHref={(to) => partnerListHref(query, { page: to })} />
      </section>
    </>
  );
}
