import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import { RouteErrorPage } from "~/components/error-page";
import { Shell } from "~/components/shell";
import { useDisplay } from "~/hooks/use-display";
import { requireUser } from "~/utils/auth.server";

/** Every signed-in page sits in the shell. Child loaders still guard themselves: loaders run in parallel. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return { user };
}

export default function ShellLayout() {
  const { user } = useLoaderData<typeof loader>();
  const display = useDisplay();
  return (
    <Shell user={user} display={display}>
      <Outlet />
    </Shell>
  );
}

export const ErrorBoundary = RouteErrorPage;
