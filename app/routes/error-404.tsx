import { data } from "@remix-run/node";
import { ErrorPage } from "~/components/error-page";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "Page not found" };

export const loader = () => data(null, { status: 404 });

export default function NotFoundPage() {
  return <ErrorPage kind="not-found" />;
}
