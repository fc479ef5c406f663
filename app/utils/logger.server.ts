import pino from "pino";

/** Structured JSON logs; the request id ties a 500 page to its log line. */
export const logger = pino({
  level: process.env.LOG_LEVEL || (process.env.NODE_ENV === "test" ? "silent" : "info"),
  base: { service: "mpp-portal" },
});
