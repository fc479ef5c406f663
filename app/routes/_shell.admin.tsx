import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet } from "@remix-run/react";
import { requireAdminOrStaff } from "~/utils/auth.server";
import { RouteErrorPage } from "~/components/error-page";

/** /admin/*: ADMIN and STAFF. A refused role sees the 403 page inside the shell. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminOrStaff(request);
  return null;
}

export default function AdminLayout() {
  return <Outlet />;
}

export const ErrorBoundary = RouteErrorPage;
