import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { PageHeader } from "~/components/page-header";
import { RemindEveryoneQuestion, type RemindEveryoneData } from "~/components/remind-everyone";
import { countEveryoneOwing } from "~/models/reminder.server";
import { requireRole } from "~/utils/auth.server";
import { partnerListHref, parsePartnerListQuery } from "~/utils/partner-list";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "Partner List" };

/**
 * The confirmation of "Remind everyone who owes a report": a page without JavaScript, the dialog's
 * data with it. Nothing is sent here; Ok posts to /admin/reminders, Cancel goes back to the list.
 */
export async function loader({ request }: LoaderFunctionArgs): Promise<RemindEveryoneData> {
  await requireRole(request, "ADMIN");
  return { owing: await countEveryoneOwing(), back: partnerListHref(parsePartnerListQuery(new URL(request.url).searchParams)) };
}

export default function RemindEveryonePage() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof loader>();
  const questionId = useId();
  return (
    <>
      <PageHeader title={t("Partner List")} />
      <section className="card card--narrow">
        <RemindEveryoneQuestion {...data} questionId={questionId} cancel={{ to: data.back }} />
      </section>
    </>
  );
}
