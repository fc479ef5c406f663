import crypto from "node:crypto";
import argon2 from "argon2";

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id });
}

/** A hash of a random password, made once: checked when an account has no hash, so that costs the same time. */
let decoyHash: Promise<string> | undefined;

/**
 * An unknown e-mail or an account without a password takes as long as a wrong password
 * (decisions.md section 7: sign-in reveals nobody's account, not even by its timing).
 */
export async function verifyPassword(hash: string | null, password: string): Promise<boolean> {
  decoyHash ??= hashPassword(crypto.randomBytes(32).toString("hex"));
  try {
    const matches = await argon2.verify(hash ?? (await decoyHash), password);
    return Boolean(hash) && matches;
  } catch {
    return false;
  }
}
