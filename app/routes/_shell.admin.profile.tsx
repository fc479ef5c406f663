import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PageHeader } from "~/components/page-header";
import { ProfileList } from "~/components/profile-list";
import { requireAdminOrStaff } from "~/utils/auth.server";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "Profile" };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireAdminOrStaff(request);
  return { name: user.name, email: user.email };
}

export default function AdminProfile() {
  const { t } = useTranslation();
  const { name, email } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader title={t("Profile")} />
      <ProfileList
        entries={[
          ["User Name", name],
          ["E-mail", email],
        ]}
      />
    </>
  );
}
