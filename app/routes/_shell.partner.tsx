import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet } from "@remix-run/react";
import { requirePartner } from "~/utils/auth.server";
import { RouteErrorPage } from "~/components/error-page";

/** /partner/*: partners only. A refused role sees the 403 page inside the shell. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePartner(request);
  return null;
}

export default function PartnerLayout() {
  return <Outlet />;
}

export const ErrorBoundary = RouteErrorPage;
