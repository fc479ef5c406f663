/** What the six report screens' route modules share besides their guards (./report-route.server.ts). */
import type { LinksFunction } from "@remix-run/node";
import { useActionData, useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import type { ComponentType } from "react";
import { isRefusalPage, keepsPageAfter, type ReportActionData } from "~/reports/frame/contract";
import reportStyles from "./report-frame.css";
import { GRID_STYLESHEET_PATH } from "./grid-stylesheet";
import { RefusalPage } from "./refusal-page";

/** The style sheets of a report screen: the grid's, the frame's, then the report's own. */
export const reportLinks =
  (...own: string[]): LinksFunction =>
  () =>
    [GRID_STYLESHEET_PATH, reportStyles, ...own].map((href) => ({ rel: "stylesheet", href }));

/**
 * After a refused post (invalid rows, someone else's save, a comment missing) the page keeps what
 * it loaded, so the editor keeps the user's unsaved input; anything else reloads as usual.
 */
export const shouldRevalidateReport: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) =>
  keepsPageAfter(actionResult as ReportActionData | undefined) ? false : defaultShouldRevalidate;

/** What a report's page component takes: its loader's data and the answer to the page's last post. */
export interface ReportPageProps<Data> {
  data: Data;
  actionData: unknown;
}

/** A report screen's route component: the report's page, or the refusal alone when the last post drew no report. */
export function reportScreen<Data extends object>(Page: ComponentType<ReportPageProps<Data>>) {
  return function ReportScreen() {
    const data = useLoaderData() as Data;
    const actionData = useActionData();
    return isRefusalPage(data) ? <RefusalPage actionData={actionData} /> : <Page data={data} actionData={actionData} />;
  };
}
