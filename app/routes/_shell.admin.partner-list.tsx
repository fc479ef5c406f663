import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PageHeader } from "~/components/page-header";
import { PartnerListTable } from "~/components/partner-list-table";
import { PartnerListToolbar } from "~/components/partner-list-toolbar";
import { deactivatePartner, listPartners, reactivatePartner } from "~/models/partner-list.server";
import { REMIND_EVERYONE_OWING } from "~/schemas/reminders";
import { requireAdminOrStaff, requireRole } from "~/utils/auth.server";
import { readForm } from "~/utils/form-data.server";
import { parseId } from "~/utils/ids";
import { partnerListHref, parsePartnerListQuery } from "~/utils/partner-list";
import { redirectWithToast } from "~/utils/toast.server";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "Partner List" };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireAdminOrStaff(request);
  const query = parsePartnerListQuery(new URL(request.url).searchParams);
  const { quarterName, rows } = await listPartners(query);
  return { quarterName, rows, query, canEdit: user.role === "ADMIN" };
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
  const { quarterName, rows, query, canEdit } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader title={t("Partner List")}>
        {/* A native post: /admin/reminders answers with a redirect back here and its toast. */}
        <Form method="post" action="/admin/reminders" reloadDocument>
          <input type="hidden" name="intent" value={REMIND_EVERYONE_OWING} />
          <input type="hidden" name="redirectTo" value={partnerListHref(query)} />
          <button
            type="submit"
            className="button button--secondary"
            disabled={!canEdit}
            title={canEdit ? undefined : t("Only an administrator can send reminders.")}
          >
            {t("Remind everyone who owes a report")}
          </button>
        </Form>
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
      </section>
    </>
  );
}
