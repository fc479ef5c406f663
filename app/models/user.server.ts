import { and, eq, isNull, ne, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { apiTokens, partners, sessions, users } from "~/db/schema";
import { mailPasswordChanged } from "./account-mails.server";
import { hashPassword, verifyPassword } from "./password.server";

export type Role = (typeof users.$inferSelect)["role"];

/** What every request knows about its signed-in user. */
export interface AuthUser {
  id: number;
  email: string;
  name: string;
  role: Role;
  partnerId: number | null;
  language: string;
}

const authUserColumns = {
  id: users.id,
  email: users.email,
  name: users.name,
  role: users.role,
  partnerId: users.partnerId,
  language: users.language,
};

function normaliseEmail(email: string) {
  return email.trim().toLowerCase();
}

export async function findUserByEmail(email: string) {
  const [user] = await db
    .select()
    .from(users)
    .where(eq(sql`lower(${users.email})`, normaliseEmail(email)));
  return user;
}

export async function getAuthUser(userId: number): Promise<AuthUser | undefined> {
  const [user] = await db
    .select(authUserColumns)
    .from(users)
    .leftJoin(partners, eq(partners.id, users.partnerId))
    .where(and(eq(users.id, userId), eq(users.isActive, true), sql`coalesce(${partners.isActive}, true)`));
  return user;
}

type LoginResult = { ok: true; user: AuthUser } | { ok: false; reason: "invalid" | "inactive" };

/** One answer for an unknown email and a wrong password, so sign-in never reveals who has an account. */
export async function verifyLogin(email: string, password: string): Promise<LoginResult> {
  const user = await findUserByEmail(email);
  const passwordOk = await verifyPassword(user?.passwordHash ?? null, password);
  if (!user || !passwordOk) return { ok: false, reason: "invalid" };
  const active = await getAuthUser(user.id);
  if (!active) return { ok: false, reason: "inactive" };
  return { ok: true, user: active };
}

export async function checkUserPassword(userId: number, password: string) {
  const [user] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId));
  return verifyPassword(user?.passwordHash ?? null, password);
}

/**
 * Sets a new password and ends every session and API token of the user but the token the change is
 * made with (`keepApiTokenId`). `tellUser` queues the "password changed" mail in the same transaction
 * (a password set through a mailed link needs none).
 */
export async function setUserPassword(
  userId: number,
  password: string,
  { keepApiTokenId, tellUser = false }: { keepApiTokenId?: number; tellUser?: boolean } = {},
) {
  const passwordHash = await hashPassword(password);
  await db.transaction(async (tx) => {
    const now = new Date();
    const [user] = await tx
      .update(users)
      .set({ passwordHash, updatedAt: now })
      .where(eq(users.id, userId))
      .returning({ email: users.email, language: users.language });
    await tx.delete(sessions).where(eq(sessions.userId, userId));
    const kept = keepApiTokenId === undefined ? undefined : ne(apiTokens.id, keepApiTokenId);
    await tx
      .update(apiTokens)
      .set({ revokedAt: now })
      .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt), kept));
    if (tellUser) await mailPasswordChanged(tx, user);
  });
}

export async function getPartnerProfile(partnerId: number) {
  const [partner] = await db
    .select({
      companyName: partners.companyName,
      email: partners.email,
      contactNumber: partners.contactNumber,
      region: partners.region,
      address: partners.address,
    })
    .from(partners)
    .where(eq(partners.id, partnerId));
  return partner;
}

/** The language a user reads the portal in: mails to them (reminders, links) use it too. */
export async function setUserLanguage(userId: number, language: string) {
  await db.update(users).set({ language }).where(eq(users.id, userId));
}
