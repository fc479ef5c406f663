import { eq, lt, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { rateLimits } from "~/db/schema";

interface RateLimitRule {
  /** How many hits the window allows. */
  limit: number;
  windowMs: number;
}

/** Password checks per e-mail and per address (a success clears the e-mail's count). */
const PASSWORD_ATTEMPTS_PER_EMAIL: RateLimitRule = { limit: 5, windowMs: 15 * 60 * 1000 };
const PASSWORD_ATTEMPTS_PER_IP: RateLimitRule = { limit: 50, windowMs: 15 * 60 * 1000 };
const RESET_REQUESTS_PER_EMAIL: RateLimitRule = { limit: 3, windowMs: 60 * 60 * 1000 };
export const RESET_REQUESTS_PER_IP: RateLimitRule = { limit: 20, windowMs: 60 * 60 * 1000 };

/**
 * Counts one hit and tells whether it is still within the limit: one statement, so parallel
 * requests are counted one after another and only `limit` of them get through. A fixed window
 * restarts once it has run out. (Counters live in the database, shared by every server instance.)
 */
async function takeHit(key: string, rule: RateLimitRule): Promise<boolean> {
  const now = new Date();
  const windowExpired = sql`${rateLimits.windowStart} < ${new Date(now.getTime() - rule.windowMs).toISOString()}::timestamptz`;
  const [row] = await db
    .insert(rateLimits)
    .values({ key, windowStart: now, count: 1 })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${windowExpired} then 1 else ${rateLimits.count} + 1 end`,
        windowStart: sql`case when ${windowExpired} then ${now.toISOString()}::timestamptz else ${rateLimits.windowStart} end`,
      },
    })
    .returning({ count: rateLimits.count });
  return row.count <= rule.limit;
}

async function clearHits(key: string): Promise<void> {
  await db.delete(rateLimits).where(eq(rateLimits.key, key));
}

const loginKeys = (email: string, ip: string) => ({ email: `login:email:${email}`, ip: `login:ip:${ip}` });

/**
 * Counts a password check (sign-in, unlock, change of password) before the password is looked
 * at; false when the e-mail or the address has had too many.
 */
export async function takePasswordAttempt(email: string, ip: string): Promise<boolean> {
  const keys = loginKeys(email, ip);
  const emailAllowed = await takeHit(keys.email, PASSWORD_ATTEMPTS_PER_EMAIL);
  const ipAllowed = await takeHit(keys.ip, PASSWORD_ATTEMPTS_PER_IP);
  return emailAllowed && ipAllowed;
}

/** A correct password: the e-mail starts afresh and the address's count gives back this attempt (only failures add up). */
export async function clearPasswordAttempts(email: string, ip: string) {
  const keys = loginKeys(email, ip);
  await clearHits(keys.email);
  await db
    .update(rateLimits)
    .set({ count: sql`greatest(${rateLimits.count} - 1, 0)` })
    .where(eq(rateLimits.key, keys.ip));
}

export const TOO_MANY_RESET_REQUESTS = "Too many requests for this e-mail. Please wait an hour and try again.";

/** Counts a password-link request; true when it is over the limit. */
export async function throttlePasswordLinkRequest(email: string, ip: string): Promise<boolean> {
  const emailAllowed = await takeHit(`reset:email:${email}`, RESET_REQUESTS_PER_EMAIL);
  const ipAllowed = await takeHit(`reset:ip:${ip}`, RESET_REQUESTS_PER_IP);
  return !(emailAllowed && ipAllowed);
}

/** Deletes counters whose window ended a day ago or more (every rule's window is shorter); returns how many. */
export async function deleteStaleRateLimits(): Promise<number> {
  const deleted = await db
    .delete(rateLimits)
    .where(lt(rateLimits.windowStart, sql`now() - interval '1 day'`))
    .returning({ key: rateLimits.key });
  return deleted.length;
}
