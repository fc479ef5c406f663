import { and, eq, isNull, isNotNull, lt, or, sql } from "drizzle-orm";
import { db, type Transaction } from "~/db/client.server";
import { passwordTokens, users } from "~/db/schema";
import { translatorFor } from "~/i18n/i18next.server";
import { appUrl } from "~/utils/env.server";
import { hashToken, newSecretToken } from "~/utils/secret-token.server";
import { enqueueMail } from "./mail.server";
import { setUserPassword } from "./user.server";

const PASSWORD_TOKEN_TTL_MS = 72 * 60 * 60 * 1000;

type Purpose = (typeof passwordTokens.$inferSelect)["purpose"];

/**
 * A random single-use token; only its hash is stored. The user's earlier unused tokens end in the
 * same transaction (marked used), so only the newest link mailed can set the password.
 */
export async function createPasswordToken(userId: number, purpose: Purpose, tx?: Transaction): Promise<string> {
  if (!tx) return db.transaction((own) => createPasswordToken(userId, purpose, own));
  const token = newSecretToken();
  await tx
    .update(passwordTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(passwordTokens.userId, userId), isNull(passwordTokens.usedAt)));
  await tx.insert(passwordTokens).values({
    userId,
    purpose,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + PASSWORD_TOKEN_TTL_MS),
  });
  return token;
}

export type TokenCheck = { status: "valid"; tokenId: number; userId: number; purpose: Purpose } | { status: "notfound" } | { status: "expired" };

export async function checkPasswordToken(token: string): Promise<TokenCheck> {
  const [row] = await db
    .select({
      id: passwordTokens.id,
      userId: passwordTokens.userId,
      purpose: passwordTokens.purpose,
      expiresAt: passwordTokens.expiresAt,
      usedAt: passwordTokens.usedAt,
      userActive: users.isActive,
    })
    .from(passwordTokens)
    .innerJoin(users, eq(users.id, passwordTokens.userId))
    .where(eq(passwordTokens.tokenHash, hashToken(token)));
  if (!row || row.usedAt || !row.userActive) return { status: "notfound" };
  if (row.expiresAt.getTime() <= Date.now()) return { status: "expired" };
  return { status: "valid", tokenId: row.id, userId: row.userId, purpose: row.purpose };
}

/** Uses the token once: the password is set and the token (and its siblings) can no longer be used. */
export async function setPasswordWithToken(token: string, password: string): Promise<TokenCheck> {
  const check = await checkPasswordToken(token);
  if (check.status !== "valid") return check;
  const claimed = await db
    .update(passwordTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(passwordTokens.userId, check.userId), isNull(passwordTokens.usedAt)))
    .returning({ id: passwordTokens.id });
  if (!claimed.some((row) => row.id === check.tokenId)) return { status: "notfound" };
  await setUserPassword(check.userId, password);
  return check;
}

/**
 * Mails a set-password link (an account without a password yet) or a reset link, with the token,
 * in the caller's transaction when it gives one. Unknown and inactive emails get no mail, and the
 * caller answers them exactly as it answers the others.
 */
export async function sendPasswordLink(user: { id: number; email: string; language: string; hasPassword: boolean }, tx?: Transaction): Promise<void> {
  if (!tx) return db.transaction((own) => sendPasswordLink(user, own));
  const purpose: Purpose = user.hasPassword ? "reset" : "set";
  const token = await createPasswordToken(user.id, purpose, tx);
  const t = await translatorFor(user.language);
  const link = `${appUrl()}/set-password/${token}`;
  const subject = purpose === "set" ? t("Set your MPP Data Portal password") : t("Reset your MPP Data Portal password");
  const text = [
    t("Hello,"),
    "",
    purpose === "set"
      ? t("An account has been created for you on the MPP Data Portal. Choose your password with this link:")
      : t("We received a request to reset your MPP Data Portal password. Choose a new password with this link:"),
    link,
    "",
    t("The link can be used once and expires in 72 hours. If you did not ask for it, ignore this mail."),
  ].join("\n");
  await enqueueMail(tx, { kind: `password-${purpose}`, to: user.email, subject, text });
}

/** Deletes used links and links expired for a week (an expired one says so on its page until then); returns how many. */
export async function deleteSpentPasswordTokens(): Promise<number> {
  const deleted = await db
    .delete(passwordTokens)
    .where(or(isNotNull(passwordTokens.usedAt), lt(passwordTokens.expiresAt, sql`now() - interval '7 days'`)))
    .returning({ id: passwordTokens.id });
  return deleted.length;
}
