const DEVELOPMENT_SECRET = "development-only-session-secret";

export function sessionSecret(): string {
  const secret = process.env.SESSION_SECRET;
  if (secret) return secret;
  if (process.env.NODE_ENV === "production") {
    throw new Error("SESSION_SECRET must be set when NODE_ENV is production.");
  }
  return DEVELOPMENT_SECRET;
}

/** Base address used in the links that mails carry. */
export function appUrl(): string {
  return (process.env.APP_URL || `http://localhost:${process.env.PORT || 3000}`).replace(/\/$/, "");
}

/** Secure cookies when the portal is served over HTTPS. */
export function useSecureCookies(): boolean {
  return appUrl().startsWith("https://");
}
