import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { endSessionHeaders } from "~/utils/auth.server";

async function logout(request: Request) {
  return redirect("/login", { headers: await endSessionHeaders(request) });
}

export const loader = ({ request }: LoaderFunctionArgs) => logout(request);
export const action = ({ request }: ActionFunctionArgs) => logout(request);
