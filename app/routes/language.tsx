import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { localeCookie } from "~/i18n/i18next.server";
import { setUserLanguage } from "~/models/user.server";
import { LanguageChoiceSchema, samePortalPath } from "~/schemas/language";
import { getOptionalUser } from "~/utils/auth.server";
import { readForm } from "~/utils/form-data.server";
import { redirectWithToast } from "~/utils/toast.server";

/**
 * POST /language (a resource route: no page). The language chosen in the menu: the pages' language
 * (a cookie) and, for a signed-in user, the language of the mails they receive. A GET with `?lng=`
 * changes only the pages' language, so a link can never rewrite an account.
 */
export function loader(_args: LoaderFunctionArgs) {
  return new Response("The language is chosen with a POST request.", {
    status: 405,
    headers: { Allow: "POST", "Content-Type": "text/plain; charset=utf-8" },
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const redirectTo = samePortalPath(form.get("redirectTo"));
  const parsed = LanguageChoiceSchema.safeParse({ language: form.get("language"), redirectTo });
  if (!parsed.success) return redirectWithToast(redirectTo, { type: "error", message: "Invalid data!" });
  const user = await getOptionalUser(request);
  if (user) await setUserLanguage(user.id, parsed.data.language);
  return redirect(redirectTo, { headers: { "Set-Cookie": await localeCookie.serialize(parsed.data.language) } });
}
