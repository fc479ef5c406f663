import * as z from "zod";
import { boundedText } from "./fields";
import { TEXT_MAX } from "~/utils/text-rules";

/** Error texts are the spec's English wording; the UI translates them (they are the i18n keys). */
export const emailField = boundedText(TEXT_MAX.email, { missing: "Please input your E-mail!" })
  .trim()
  .toLowerCase()
  .min(1, { error: "Please input your E-mail!" })
  .pipe(z.email({ error: "Please input a valid E-mail!" }));

export const LoginSchema = z.object({
  email: emailField,
  password: boundedText(TEXT_MAX.password, { missing: "Please input your Password!" }).trim().min(1, { error: "Please input your Password!" }),
  remember: z.boolean().optional(),
});

export const ForgotPasswordSchema = z.object({ email: emailField });

/**
 * A new password: sign-in refuses control characters and trims the password (spec: login), so no
 * password is set with either; every password field is trimmed alike.
 */
export const newPasswordField = boundedText(100, { missing: "Please input your Password!", tooLong: "Password must contain at most 100 characters" })
  .trim()
  .min(1, { error: "Please input your Password!" })
  .min(8, { error: "Password must contain at least 8 characters" })
  .regex(/\d/, { error: "Password must contain at least 1 numeric digit" })
  .regex(/[a-z]/, { error: "Password must contain at least 1 lowercase letter" });

const confirmation = {
  password: newPasswordField,
  confirmPassword: boundedText(TEXT_MAX.password, { missing: "Please confirm your password!" }).trim().min(1, { error: "Please confirm your password!" }),
};

function passwordsMatch(value: { password: string; confirmPassword: string }) {
  return value.password === value.confirmPassword;
}
const mismatch = { error: "The two passwords that you entered do not match!", path: ["confirmPassword"] };

export const SetPasswordSchema = z.object(confirmation).refine(passwordsMatch, mismatch);

export const ChangePasswordSchema = z
  .object({
    currentPassword: boundedText(TEXT_MAX.password, { missing: "Please input your current password!" })
      .trim()
      .min(1, { error: "Please input your current password!" }),
    ...confirmation,
  })
  .refine(passwordsMatch, mismatch);

export const UnlockSchema = z.object({
  password: boundedText(TEXT_MAX.password, { missing: "Please input your Password!" }).trim().min(1, { error: "Please input your Password!" }),
});
