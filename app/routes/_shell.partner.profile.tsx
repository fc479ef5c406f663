import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PageHeader } from "~/components/page-header";
import { ProfileList } from "~/components/profile-list";
import { getPartnerProfile } from "~/models/user.server";
import { requirePartner } from "~/utils/auth.server";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "Profile" };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requirePartner(request);
  const profile = await getPartnerProfile(user.partnerId);
  if (!profile) throw new Response("Partner not found", { status: 404 });
  return { profile };
}

export default function PartnerProfile() {
  const { t } = useTranslation();
  const { profile } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader title={t("Profile")} />
      <ProfileList
        entries={[
          ["Company Name", profile.companyName],
          ["E-mail", profile.email],
          ["Contact Number", profile.contactNumber],
          ["Region", profile.region ? t(profile.region) : null],
          ["Address", profile.address],
        ]}
      />
    </>
  );
}
