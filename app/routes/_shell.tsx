import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, isRouteErrorResponse, useLoaderData, useRouteError } from "@remix-run/react";
import { ErrorPage } from "~/components/error-page";
import { Shell } from "~/components/shell";
import { useRootData } from "~/root";
import { requireUser } from "~/utils/auth.server";

/** Every signed-in page sits in the shell. Child loaders still guard themselves: loaders run in parallel. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return { user };
}

export default function ShellLayout() {
  const { user } = useLoaderData<typeof loader>();
  const rootData = useRootData();
  return (
    <Shell user={user} display={rootData?.display}>
      <Outlet />
    </Shell>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const rootData = useRootData();
  const kind = isRouteErrorResponse(error) && error.status === 403 ? "forbidden" : "server";
  return <ErrorPage kind={kind} requestId={rootData?.requestId} />;
}
