import type { LinksFunction } from "@remix-run/node";
import reportStyles from "~/reports/frame/report-frame.css";
import consolidatedStyles from "./consolidated-report.css";

/** A page's stylesheets, as its `links`. */
export const stylesheetLinks =
  (...hrefs: string[]): LinksFunction =>
  () =>
    hrefs.map((href) => ({ rel: "stylesheet", href }));

/** A consolidated page's stylesheets: the report frame's, the consolidated kit's (filters, numbers), then the page's own. */
export const consolidatedLinks = (...own: string[]) => stylesheetLinks(reportStyles, consolidatedStyles, ...own);
