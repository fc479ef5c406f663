import crypto from "node:crypto";
import { createRequire } from "node:module";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { pathToFileURL } from "node:url";
// The adapter's request builder; its index exports only the handler whose sending is replaced below (the version is pinned).
import { createRemixRequest } from "@remix-run/express/dist/server.js";
import { broadcastDevReady, createRequestHandler, type ServerBuild } from "@remix-run/node";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import helmet from "helmet";
import { pinoHttp } from "pino-http";
import { closeDatabase, initDatabase } from "./app/db/client.server";
import { checkDatabase } from "./app/models/health.server";
import { GRID_STYLESHEET_MODULE, GRID_STYLESHEET_PATH } from "./app/reports/frame/grid-stylesheet";
import { closeJobQueue, openJobQueue } from "./app/jobs/queue.server";
import { closePdfBrowser } from "./app/utils/html-to-pdf.server";
import { seedIfEmpty } from "./app/models/seed.server";
import { ensureGeneratedSessionSecret } from "./app/models/settings.server";
import { isCrossSiteRequest } from "./app/utils/cross-site.server";
import { logger, requestLogSerializers } from "./app/utils/logger.server";

const isDevelopment = process.env.NODE_ENV === "development";
const port = Number(process.env.PORT || 3000);
const BUILD_PATH = path.resolve("build/index.js");

const database = await initDatabase();
if (!process.env.SESSION_SECRET) {
  if (process.env.NODE_ENV === "production") {
    process.env.SESSION_SECRET = await ensureGeneratedSessionSecret();
    logger.warn("SESSION_SECRET is not set: using a secret generated once and kept in the database.");
  }
}
if (await seedIfEmpty()) logger.info("Empty database: reference and demo data seeded.");
// Loaded once the session secret is settled: the worker's purge reaches the session module.
const { startWorker, workerEnabled } = await import("./app/jobs/worker.server");
await openJobQueue({ maintain: workerEnabled() });

const build = (await import(pathToFileURL(BUILD_PATH).href)) as ServerBuild;

/**
 * The proxies whose X-Forwarded-For and X-Forwarded-Proto are believed (TRUST_PROXY, in Express's
 * forms: a number of hops, addresses and subnets separated by commas, or names such as
 * `loopback`); none unless set, so a client cannot choose the address its rate limits count.
 */
function trustedProxies(setting = process.env.TRUST_PROXY?.trim()): number | string | false {
  if (!setting) return false;
  return /^\d+$/.test(setting) ? Number(setting) : setting;
}

const app = express();
app.disable("x-powered-by");
app.set("trust proxy", trustedProxies());

app.use((req: Request, res: Response, next: NextFunction) => {
  res.locals.requestId = (req.get("x-request-id") || crypto.randomUUID()).slice(0, 64);
  res.locals.cspNonce = crypto.randomBytes(16).toString("base64");
  res.setHeader("X-Request-Id", res.locals.requestId);
  next();
});

app.use(
  pinoHttp({
    logger,
    genReqId: (_req, res) => (res as Response).locals.requestId,
    autoLogging: { ignore: (req) => req.url?.startsWith("/build/") ?? false },
    wrapSerializers: false,
    serializers: requestLogSerializers,
  }),
);

app.use(
  helmet({
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", (_req, res) => `'nonce-${(res as Response).locals.cspNonce}'`],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:"],
        fontSrc: ["'self'", "data:"],
        connectSrc: isDevelopment ? ["'self'", "ws:"] : ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        // The portal may run over plain HTTP inside a private network.
        upgradeInsecureRequests: null,
      },
    },
    strictTransportSecurity: process.env.APP_URL?.startsWith("https://") ? undefined : false,
    // "no-referrer" would make browsers send `Origin: null` on the portal's own form posts.
    referrerPolicy: { policy: "same-origin" },
  }),
);
app.use(compression());

/** No body may be larger than the largest form of the portal; each action also limits its own. */
const MAX_REQUEST_BYTES = 40 * 1024 * 1024;

/** The body's declared size: Infinity when it comes in chunks of unknown total. */
const declaredBodyBytes = (req: Request) => (req.get("transfer-encoding") ? Infinity : Number(req.get("content-length") ?? 0));

/**
 * A request answered before its body was read to the end (a refusal, a route with no use for the
 * body) leaves the rest of the body in the connection, in front of the client's next request.
 * Node reads such a rest off only when nothing listens to the request stream, and the Remix
 * request's body always does. So the rest is read and dropped here once the answer is sent, when
 * its size is known and within what the portal accepts at all; otherwise (and for any refusal of a
 * body of unknown size) the answer says `Connection: close` and the connection ends after it (a
 * client or proxy sends nothing more on it).
 */
app.use((req: Request, res: Response, next: NextFunction) => {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => Response;
  res.writeHead = ((...args: unknown[]) => {
    // A refused body of unknown size closes the connection whether or not its end happened to arrive already.
    const refused = (typeof args[0] === "number" ? args[0] : res.statusCode) >= 400;
    if ((!req.complete || refused) && declaredBodyBytes(req) > MAX_REQUEST_BYTES) res.setHeader("Connection", "close");
    return writeHead(...args);
  }) as Response["writeHead"];
  res.on("finish", () => {
    if (req.complete || res.getHeader("Connection") === "close") return;
    // The Remix request's body stream is let go of, as Node does with a body nobody reads.
    req.removeAllListeners("data");
    req.resume();
  });
  next();
});

app.use((req: Request, res: Response, next: NextFunction) => {
  if (Number(req.get("content-length") ?? 0) > MAX_REQUEST_BYTES) {
    res.status(413).type("text/plain").send("The request is too large.");
    return;
  }
  next();
});

app.use((req: Request, res: Response, next: NextFunction) => {
  if (isCrossSiteRequest({ method: req.method, url: req.originalUrl, protocol: req.protocol, header: (name) => req.get(name) })) {
    res.status(403).type("text/plain").send("Cross-site request refused.");
    return;
  }
  next();
});

app.get("/healthz", async (_req, res) => {
  const ok = await checkDatabase();
  res.status(ok ? 200 : 503).json({ status: ok ? "ok" : "database unavailable", database: database.driver });
});

// Fingerprinted build assets never change: cache them for a year.
app.use("/build", express.static("public/build", { immutable: true, maxAge: "1y" }));
app.use(express.static("public", { maxAge: "1h" }));
const gridStylesheet = createRequire(import.meta.url).resolve(GRID_STYLESHEET_MODULE);
app.get(GRID_STYLESHEET_PATH, (_req, res, next) => res.sendFile(gridStylesheet, { maxAge: "1h" }, (error) => error && next(error)));

// Pages and data answers hold a signed-in user's data: never kept by a browser or a proxy. A route
// that states its own caching (the dashboard's map geometry) replaces this default: the Remix
// adapter appends headers, and two Cache-Control values would leave no-store in force.
app.use((_req: Request, res: Response, next: NextFunction) => {
  res.setHeader("Cache-Control", "private, no-store");
  const append = res.append.bind(res);
  res.append = (field: string, value?: string | string[]) =>
    field.toLowerCase() === "cache-control" && value !== undefined ? res.setHeader(field, value) : append(field, value);
  next();
});

// Remix's Express adapter sends a body without waiting for the client (it ignores backpressure),
// so a download to a slow client was held in memory whole: the body is piped here instead.
const handleRemixRequest = createRequestHandler(build, build.mode);
app.all("*", async (req: Request, res: Response, next: NextFunction) => {
  let response: globalThis.Response;
  try {
    response = await handleRemixRequest(createRemixRequest(req, res), {
      requestId: res.locals.requestId as string,
      cspNonce: res.locals.cspNonce as string,
      clientIp: req.ip ?? "unknown",
    });
  } catch (error) {
    return next(error);
  }
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [key, value] of response.headers.entries()) res.append(key, value);
  if (!response.body) return void res.end();
  try {
    await pipeline(Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>), res);
  } catch (error) {
    // The client went away, or the body failed after its first bytes: the response is cut short.
    logger.warn({ err: error, requestId: res.locals.requestId }, "response body not sent in full");
  }
});

// What fails before Remix answers (a Host header no URL can be made of): the request log line
// holds the error, the client gets only the request id to quote.
app.use((error: Error, _req: Request, res: Response, next: NextFunction) => {
  if (res.headersSent) return next(error);
  res.err = error;
  res.status(500).type("text/plain").send(`Sorry, server goes wrong. Reference for support: ${res.locals.requestId}`);
});

// Mail delivery, scheduled reminders and purges; WORKER=off leaves them to other instances.
const stopWorker = workerEnabled() ? await startWorker() : async () => {};
const server = app.listen(port, () => {
  logger.info({ port, database: database.driver }, `MPP Data Portal listening on http://localhost:${port}`);
  if (isDevelopment) broadcastDevReady(build);
});

let shuttingDown = false;
async function shutdown(signal: string) {
  if (shuttingDown) return;
  shuttingDown = true;
  logger.info({ signal }, "shutting down");
  const forceExit = setTimeout(() => process.exit(1), 10_000);
  forceExit.unref();
  const workerStopped = stopWorker().then(closeJobQueue).then(closePdfBrowser);
  server.close(async () => {
    await workerStopped;
    await closeDatabase();
    process.exit(0);
  });
  server.closeIdleConnections();
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
