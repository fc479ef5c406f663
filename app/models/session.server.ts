import crypto from "node:crypto";
import { createCookie, createSessionStorage } from "@remix-run/node";
import { and, eq, gt, isNull, or, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { sessions } from "~/db/schema";
import { sessionSecret, useSecureCookies } from "~/utils/env.server";

/** A plain sign-in lasts a working day at most, and ends after 2 hours without a request; "remember me" keeps it for 30 days. */
const SESSION_TTL_MS = 12 * 60 * 60 * 1000;
const SESSION_IDLE_MS = 2 * 60 * 60 * 1000;
export const REMEMBER_ME_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** How stale the last-seen time may get before a request writes it again (not a write per request). */
const LAST_SEEN_RESOLUTION_MS = 60 * 1000;

/** A session still alive: before its absolute end and, for a plain sign-in, seen within its idle time. */
const alive = () =>
  and(
    gt(sessions.expiresAt, sql`now()`),
    or(isNull(sessions.idleTimeoutSeconds), gt(sessions.lastSeenAt, sql`now() - make_interval(secs => ${sessions.idleTimeoutSeconds})`)),
  );

interface SessionData {
  userId: number;
  locked?: boolean;
}

export const sessionCookie = createCookie("__session", {
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  secure: useSecureCookies(),
  secrets: [sessionSecret()],
});

/** Server-side sessions: the cookie only carries the row's random id. */
export const sessionStorage = createSessionStorage<SessionData>({
  cookie: sessionCookie,
  // `expires` comes with "remember me" (the cookie's max-age); a plain sign-in has none.
  async createData(data, expires) {
    const id = crypto.randomBytes(32).toString("base64url");
    if (!data.userId) throw new Error("A session needs a user");
    await db.insert(sessions).values({
      id,
      userId: data.userId,
      data,
      expiresAt: expires ?? new Date(Date.now() + SESSION_TTL_MS),
      idleTimeoutSeconds: expires ? null : SESSION_IDLE_MS / 1000,
    });
    return id;
  },
  async readData(id) {
    const [row] = await db
      .select({ data: sessions.data, lastSeenAt: sessions.lastSeenAt })
      .from(sessions)
      .where(and(eq(sessions.id, id), alive()));
    if (!row) return null;
    if (Date.now() - row.lastSeenAt.getTime() > LAST_SEEN_RESOLUTION_MS) {
      await db
        .update(sessions)
        .set({ lastSeenAt: sql`now()` })
        .where(eq(sessions.id, id));
    }
    return row.data as unknown as SessionData;
  },
  async updateData(id, data, expires) {
    await db
      .update(sessions)
      .set({ data, ...(expires ? { expiresAt: expires } : {}) })
      .where(eq(sessions.id, id));
  },
  async deleteData(id) {
    await db.delete(sessions).where(eq(sessions.id, id));
  },
});

/** Deletes the sessions that have ended (past their absolute end or their idle time); returns how many. */
export async function deleteEndedSessions(): Promise<number> {
  const deleted = await db
    .delete(sessions)
    .where(sql`not (${alive()})`)
    .returning({ id: sessions.id });
  return deleted.length;
}
