import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable, type AppLoadContext, type EntryContext, type HandleErrorFunction } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { createInstance, type i18n as I18n } from "i18next";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { i18nConfig } from "./i18n/config";
import { i18next, resources } from "./i18n/i18next.server";
import { logger, redactSecrets } from "./utils/logger.server";
import { NonceContext } from "./utils/nonce";

const ABORT_DELAY = 5_000;

/**
 * One i18next instance per language, made at its first page: a render only reads it (nothing on
 * the server changes an instance's language), and making one costs more than many renders' lookups.
 */
const translations = new Map<string, Promise<I18n>>();
function translationsFor(lng: string): Promise<I18n> {
  let instance = translations.get(lng);
  if (!instance) {
    const made = createInstance();
    instance = made
      .use(initReactI18next)
      .init({ ...i18nConfig, lng, resources })
      .then(() => made);
    translations.set(lng, instance);
  }
  return instance;
}

export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  const requestId = (context as Partial<AppLoadContext>)?.requestId;
  logger.error({ requestId, method: request.method, url: redactSecrets(request.url), err: error }, "request failed");
};

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const instance = await translationsFor(await i18next.getLocale(request));
  const nonce = loadContext.cspNonce ?? "";
  const waitForAll = isbot(request.headers.get("user-agent") ?? "") || remixContext.isSpaMode;

  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <I18nextProvider i18n={instance}>
          <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
        </I18nextProvider>
      </NonceContext.Provider>,
      {
        nonce,
        [waitForAll ? "onAllReady" : "onShellReady"]() {
          shellRendered = true;
          const body = new PassThrough();
          responseHeaders.set("Content-Type", "text/html");
          resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) logger.error({ requestId: loadContext.requestId, err: error }, "render failed");
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
  });
}
