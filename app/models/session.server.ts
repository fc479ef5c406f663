import crypto from "node:crypto";
import { createCookie, createSessionStorage } from "@remix-run/node";
import { and, eq, gt, lt } from "drizzle-orm";
import { db } from "~/db/client.server";
import { sessions } from "~/db/schema";
import { sessionSecret, useSecureCookies } from "~/utils/env.server";

/** A plain sign-in lasts a working day; "remember me" keeps it for 30 days. */
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;
export const REMEMBER_ME_TTL_MS = 30 * 24 * 60 * 60 * 1000;

export interface SessionData {
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
  async createData(data, expires) {
    const id = crypto.randomBytes(32).toString("base64url");
    if (!data.userId) throw new Error("A session needs a user");
    await db.insert(sessions).values({
      id,
      userId: data.userId,
      data,
      expiresAt: expires ?? new Date(Date.now() + SESSION_TTL_MS),
    });
    return id;
  },
  async readData(id) {
    const [row] = await db
      .select({ data: sessions.data })
      .from(sessions)
      .where(and(eq(sessions.id, id), gt(sessions.expiresAt, new Date())));
    return (row?.data as unknown as SessionData | undefined) ?? null;
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

export async function deleteExpiredSessions() {
  await db.delete(sessions).where(lt(sessions.expiresAt, new Date()));
}
