import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AuthCard } from "~/components/auth-card";
import { endSessionHeaders, getOptionalUser } from "~/utils/auth.server";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "Logout" };

/** Opening /logout only asks: a link or an image must never end a session, a POST does. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getOptionalUser(request);
  if (!user) throw redirect("/login");
  return { name: user.name, email: user.email };
}

export async function action({ request }: ActionFunctionArgs) {
  return redirect("/login", { headers: await endSessionHeaders(request) });
}

export default function LogoutPage() {
  const { t } = useTranslation();
  const { name, email } = useLoaderData<typeof loader>();
  return (
    <AuthCard title={t("Logout")} subtitle={`${name} (${email})`}>
      <Form method="post" className="form">
        <button type="submit" className="button button--primary button--block">
          {t("Logout")}
        </button>
      </Form>
    </AuthCard>
  );
}
