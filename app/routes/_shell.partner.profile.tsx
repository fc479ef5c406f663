import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PageHeader } from "~/components/page-header";
import { ProfileList } from "~/components/profile-list";
import { getPartnerProfile } from "~/models/user.server";
import { requirePartner } from "~/utils/auth.server";

export const meta: MetaFunction = () => [{ title: "Profile | MPP Data Portal" }];

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
          ["Region", profile.region],
          ["Address", profile.address],
        ]}
      />
    </>
  );
}
