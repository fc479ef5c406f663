import { eq, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { rateLimits } from "~/db/schema";

export interface RateLimitRule {
  /** How many hits the window allows. */
  limit: number;
  windowMs: number;
}

export const LOGIN_FAILURES_PER_EMAIL: RateLimitRule = { limit: 5, windowMs: 15 * 60 * 1000 };
export const LOGIN_FAILURES_PER_IP: RateLimitRule = { limit: 50, windowMs: 15 * 60 * 1000 };
export const RESET_REQUESTS_PER_EMAIL: RateLimitRule = { limit: 3, windowMs: 60 * 60 * 1000 };
export const RESET_REQUESTS_PER_IP: RateLimitRule = { limit: 20, windowMs: 60 * 60 * 1000 };

/** Is the key over its limit? (Counters live in the database, shared by every server instance.) */
export async function isRateLimited(key: string, rule: RateLimitRule): Promise<boolean> {
  const [row] = await db.select().from(rateLimits).where(eq(rateLimits.key, key));
  if (!row) return false;
  const windowOpen = Date.now() - row.windowStart.getTime() < rule.windowMs;
  return windowOpen && row.count >= rule.limit;
}

/** Counts one hit: a fixed window that restarts once it has run out. */
export async function recordHit(key: string, rule: RateLimitRule): Promise<void> {
  const now = new Date();
  const windowExpired = sql`${rateLimits.windowStart} < ${new Date(now.getTime() - rule.windowMs).toISOString()}::timestamptz`;
  await db
    .insert(rateLimits)
    .values({ key, windowStart: now, count: 1 })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${windowExpired} then 1 else ${rateLimits.count} + 1 end`,
        windowStart: sql`case when ${windowExpired} then ${now.toISOString()}::timestamptz else ${rateLimits.windowStart} end`,
      },
    });
}

export async function clearHits(key: string): Promise<void> {
  await db.delete(rateLimits).where(eq(rateLimits.key, key));
}

const loginKeys = (email: string, ip: string) => ({ email: `login:email:${email}`, ip: `login:ip:${ip}` });

export async function isLoginThrottled(email: string, ip: string) {
  const keys = loginKeys(email, ip);
  return (await isRateLimited(keys.email, LOGIN_FAILURES_PER_EMAIL)) || (await isRateLimited(keys.ip, LOGIN_FAILURES_PER_IP));
}

export async function recordLoginFailure(email: string, ip: string) {
  const keys = loginKeys(email, ip);
  await recordHit(keys.email, LOGIN_FAILURES_PER_EMAIL);
  await recordHit(keys.ip, LOGIN_FAILURES_PER_IP);
}

export async function clearLoginFailures(email: string) {
  await clearHits(loginKeys(email, "").email);
}

export const TOO_MANY_RESET_REQUESTS = "Too many requests for this e-mail. Please wait an hour and try again.";

/** Counts a password-link request and tells whether it is over the limit. */
export async function throttlePasswordLinkRequest(email: string, ip: string): Promise<boolean> {
  const emailKey = `reset:email:${email}`;
  const ipKey = `reset:ip:${ip}`;
  if ((await isRateLimited(emailKey, RESET_REQUESTS_PER_EMAIL)) || (await isRateLimited(ipKey, RESET_REQUESTS_PER_IP))) {
    return true;
  }
  await recordHit(emailKey, RESET_REQUESTS_PER_EMAIL);
  await recordHit(ipKey, RESET_REQUESTS_PER_IP);
  return false;
}
