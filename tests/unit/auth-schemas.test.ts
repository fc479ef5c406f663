import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { ChangePasswordSchema, ForgotPasswordSchema, LoginSchema, SetPasswordSchema } from "~/schemas/auth";

const form = (values: Record<string, string>) => {
  const data = new FormData();
  for (const [key, value] of Object.entries(values)) data.append(key, value);
  return data;
};
const errorsOf = (schema: Parameters<typeof parseWithZod>[1]["schema"], values: Record<string, string>) => {
  const submission = parseWithZod(form(values), { schema });
  return submission.status === "error" ? submission.error : null;
};

describe("login schema", () => {
  it("trims and lower-cases the e-mail and trims the password", () => {
    const submission = parseWithZod(form({ email: "  Partner1@Example.ORG ", password: "  secret-1 ", remember: "on" }), { schema: LoginSchema });
    expect(submission.status).toBe("success");
    if (submission.status === "success") {
      expect(submission.value).toEqual({ email: "partner1@example.org", password: "secret-1", remember: true });
    }
  });

  it("uses the spec's messages", () => {
    expect(errorsOf(LoginSchema, {})).toEqual({ email: ["Please input your E-mail!"], password: ["Please input your Password!"] });
    expect(errorsOf(LoginSchema, { email: "   ", password: "   " })).toEqual({
      email: ["Please input your E-mail!"],
      password: ["Please input your Password!"],
    });
    expect(errorsOf(LoginSchema, { email: "a@b", password: "x" })?.email).toEqual(["Please input a valid E-mail!"]);
    expect(errorsOf(ForgotPasswordSchema, { email: "nobody" })?.email).toEqual(["Please input a valid E-mail!"]);
  });
});

describe("new password rules", () => {
  const passwordErrors = (password: string) => errorsOf(SetPasswordSchema, { password, confirmPassword: password })?.password;

  it("needs 8 to 100 characters with a digit and a lowercase letter", () => {
    expect(passwordErrors("")).toEqual(["Please input your Password!"]);
    expect(passwordErrors("abc1234")).toEqual(["Password must contain at least 8 characters"]);
    expect(passwordErrors("abcd1234")).toBeUndefined();
    expect(passwordErrors("a1" + "x".repeat(98))).toBeUndefined();
    expect(passwordErrors("a1" + "x".repeat(99))).toEqual(["Password must contain at most 100 characters"]);
    expect(passwordErrors("abcdefgh")).toEqual(["Password must contain at least 1 numeric digit"]);
    expect(passwordErrors("ABCDEFG1")).toEqual(["Password must contain at least 1 lowercase letter"]);
  });

  it("needs a matching confirmation", () => {
    expect(errorsOf(SetPasswordSchema, { password: "abcd1234" })?.confirmPassword).toEqual(["Please confirm your password!"]);
    expect(errorsOf(SetPasswordSchema, { password: "abcd1234", confirmPassword: "abcd12345" })?.confirmPassword).toEqual([
      "The two passwords that you entered do not match!",
    ]);
    expect(errorsOf(ChangePasswordSchema, { password: "abcd1234", confirmPassword: "abcd1234" })?.currentPassword).toEqual([
      "Please input your current password!",
    ]);
  });
});
