import { useRouteLoaderData } from "@remix-run/react";
import { DEFAULT_DISPLAY, type DisplaySettings } from "~/utils/display";

/** What the root loader (app/root.tsx) gives every page that components read. */
export interface RootDisplayData {
  display: DisplaySettings;
}

/** The display settings (theme, navigation style, layout) the root loader read for this page. */
export function useDisplay(): DisplaySettings {
  return (useRouteLoaderData("root") as RootDisplayData | undefined)?.display ?? DEFAULT_DISPLAY;
}
