import { data, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useMatches, useRouteLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { RouteErrorPage } from "./components/error-page";
import { ToastMessage } from "./components/toast";
import { useDisplay, type RootDisplayData } from "./hooks/use-display";
import { isSupportedLanguage, textDirection } from "./i18n/config";
import { i18next, localeCookie } from "./i18n/i18next.server";
import stylesheet from "./styles/app.css";
import { resolveDisplaySettings } from "./utils/display.server";
import { useNonce } from "./utils/nonce";
import { PORTAL_NAME, routeTitle } from "./utils/page-title";
import { readToast } from "./utils/toast.server";
import { version as appVersion } from "../package.json";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const handle = { i18n: "common" };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const locale = await i18next.getLocale(request);
  const { display, setCookie: displayCookie } = await resolveDisplaySettings(request);
  const { toast, setCookie: toastCookie } = await readToast(request);
  const headers = new Headers();
  // `?lng=` chooses the pages' language, kept in a cookie; the account's mail language is not written by a GET.
  const requestedLanguage = new URL(request.url).searchParams.get("lng");
  if (isSupportedLanguage(requestedLanguage)) headers.append("Set-Cookie", await localeCookie.serialize(requestedLanguage));
  if (displayCookie) headers.append("Set-Cookie", displayCookie);
  if (toastCookie) headers.append("Set-Cookie", toastCookie);
  const body = { locale, display, toast, requestId: context.requestId };
  return data(body satisfies RootDisplayData, { headers });
}

export function Layout({ children }: { children: React.ReactNode }) {
  const rootData = useRouteLoaderData<typeof loader>("root");
  const nonce = useNonce();
  const { t, i18n } = useTranslation();
  const title = routeTitle(useMatches());
  const locale = rootData?.locale ?? "en";
  const display = useDisplay();

  useEffect(() => {
    if (i18n.language !== locale) void i18n.changeLanguage(locale);
  }, [i18n, locale]);

  // Lets browser tests (and styles) tell a hydrated page from server HTML still waiting for its scripts.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);

  return (
    <html
      lang={locale}
      dir={textDirection(locale)}
      data-theme={display.theme}
      data-nav-style={display.navStyle}
      data-layout-type={display.layoutType}
      data-locales-version={appVersion}
    >
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title ? `${t(title)} | ${t(PORTAL_NAME)}` : t(PORTAL_NAME)}</title>
        <Meta />
        <Links />
      </head>
      <body>
        {/* Keyed by request: the same message twice in a row shows twice. */}
        {rootData?.toast ? <ToastMessage key={rootData.requestId} toast={rootData.toast} /> : null}
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export const ErrorBoundary = RouteErrorPage;
