import { data, type MetaFunction } from "@remix-run/node";
import { ErrorPage } from "~/components/error-page";

export const meta: MetaFunction = () => [{ title: "Page not found | MPP Data Portal" }];

export const loader = () => data(null, { status: 404 });

export default function NotFoundPage() {
  return <ErrorPage kind="not-found" />;
}
