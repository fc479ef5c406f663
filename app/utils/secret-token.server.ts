import crypto from "node:crypto";

/** A random token for a link or an API client: 32 bytes, URL-safe. Only its hash is stored. */
export function newSecretToken(): string {
  return crypto.randomBytes(32).toString("base64url");
}

export function hashToken(token: string): string {
  return crypto.createHash("sha256").update(token).digest("hex");
}
