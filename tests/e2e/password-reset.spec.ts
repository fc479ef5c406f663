import { SMTPServer } from "smtp-server";
import { expect, test } from "./support/fixtures";

interface ReceivedMail {
  to: string[];
  raw: string;
}

/** A real SMTP listener on the port the test server sends to. */
function startMailbox(port: number) {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      let raw = "";
      stream.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
      stream.on("end", () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  return new Promise<{ received: ReceivedMail[]; close: () => Promise<void> }>((resolve) => {
    server.listen(port, "127.0.0.1", () =>
      resolve({ received, close: () => new Promise((done) => server.close(() => done())) }),
    );
  });
}

/** The link in a quoted-printable body may be folded with "=" soft line breaks. */
function linkFrom(raw: string) {
  const unfolded = raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
  return /http:\/\/localhost:\d+\/set-password\/[\w-]+/.exec(unfolded)?.[0];
}

test("forgot password: the mailed link sets a new password that signs in", async ({ page }) => {
  const mailbox = await startMailbox(Number(process.env.E2E_SMTP_PORT || 2526));
  try {
    await page.goto("/login");
    await page.getByRole("link", { name: "Forgot password?" }).click();
    await expect(page).toHaveURL("/reset-password");
    await page.getByLabel("E-mail").fill("partner2@example.org");
    await page.getByRole("button", { name: "Send link" }).click();
    await expect(page).toHaveURL("/login");
    await expect(page.getByRole("status")).toContainText("Email to change password has been sent to given email id!");

    await expect.poll(() => mailbox.received.length).toBe(1);
    expect(mailbox.received[0].to).toEqual(["partner2@example.org"]);
    const link = linkFrom(mailbox.received[0].raw);
    expect(link).toBeDefined();

    await page.goto(new URL(link!).pathname);
    await page.getByLabel("Password", { exact: true }).fill("fresh-pass-42");
    await page.getByLabel("Confirm Password").fill("fresh-pass-24");
    await page.getByLabel("Confirm Password").press("Enter");
    await expect(page.getByText("The two passwords that you entered do not match!")).toBeVisible();
    await page.getByLabel("Confirm Password").fill("fresh-pass-42");
    await page.getByLabel("Confirm Password").press("Enter");
    await expect(page).toHaveURL("/login");
    await expect(page.getByRole("status")).toContainText("Password set successfully");

    await page.getByLabel("E-mail").fill("partner2@example.org");
    await page.getByLabel("Password").fill("fresh-pass-42");
    await page.getByLabel("Password").press("Enter");
    await expect(page).toHaveURL("/partner/dashboard");

    // The link was single use.
    await page.getByRole("button", { name: "Logout" }).first().click();
    await page.goto(new URL(link!).pathname);
    await expect(page).toHaveURL("/error-404");
  } finally {
    await mailbox.close();
  }
});

test("?token=true reads 'Resend set password link'", async ({ page }) => {
  await page.goto("/reset-password?token=true");
  await expect(page.getByRole("heading", { name: "Resend set password link" })).toBeVisible();
});
