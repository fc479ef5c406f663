import { and, eq, gt, isNull } from "drizzle-orm";
import { db } from "~/db/client.server";
import { apiTokens } from "~/db/schema";
import { hashToken, newSecretToken } from "~/utils/secret-token.server";
import { getAuthUser, type AuthUser } from "./user.server";

/** An API token lasts as long as a browser session. */
const API_TOKEN_TTL_MS = 12 * 60 * 60 * 1000;
const LAST_USED_RESOLUTION_MS = 60 * 1000;

export async function issueApiToken(userId: number): Promise<{ token: string; expiresAt: Date }> {
  const token = newSecretToken();
  const expiresAt = new Date(Date.now() + API_TOKEN_TTL_MS);
  await db.insert(apiTokens).values({ userId, tokenHash: hashToken(token), expiresAt });
  return { token, expiresAt };
}

/**
 * The active user of a token that has neither expired nor been revoked. A deactivated user or
 * partner has none (getAuthUser), even before the deactivation's revocation.
 */
export async function findApiTokenUser(token: string): Promise<{ user: AuthUser; tokenId: number } | null> {
  const [found] = await db
    .select({ id: apiTokens.id, userId: apiTokens.userId, lastUsedAt: apiTokens.lastUsedAt })
    .from(apiTokens)
    .where(and(eq(apiTokens.tokenHash, hashToken(token)), isNull(apiTokens.revokedAt), gt(apiTokens.expiresAt, new Date())));
  if (!found) return null;
  const user = await getAuthUser(found.userId);
  if (!user) return null;
  // Noted at most once a minute: a script calling in a loop should not write a row per call.
  const now = new Date();
  if (!found.lastUsedAt || now.getTime() - found.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    await db.update(apiTokens).set({ lastUsedAt: now }).where(eq(apiTokens.id, found.id));
  }
  return { user, tokenId: found.id };
}

export async function revokeApiToken(tokenId: number) {
  await db
    .update(apiTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiTokens.id, tokenId), isNull(apiTokens.revokedAt)));
}
