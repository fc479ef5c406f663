import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PageHeader } from "~/components/page-header";
import { ProfileList } from "~/components/profile-list";
import { getCutOffDate } from "~/models/settings.server";
import { requireAdminOrStaff } from "~/utils/auth.server";
import { formatDate } from "~/utils/dates";

export const meta: MetaFunction = () => [{ title: "Settings | MPP Data Portal" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminOrStaff(request);
  return { cutOffDate: (await getCutOffDate()) ?? null };
}

export default function AdminSettings() {
  const { t } = useTranslation();
  const { cutOffDate } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader title={t("Settings")} />
      <ProfileList entries={[["Report submission date", cutOffDate ? formatDate(cutOffDate) : null]]} />
    </>
  );
}
