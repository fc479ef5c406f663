import { expect, test } from "./support/fixtures";
import { linkFrom, startMailbox } from "./support/mailbox";

test("forgot password: the mailed link sets a new password that signs in", async ({ page, open }) => {
  const mailbox = await startMailbox();
  try {
    await open("/login");
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

    await open(new URL(link!).pathname);
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

    // The link was single use: its page says so and asks for a new link.
    await page.getByRole("button", { name: "Logout" }).first().click();
    await expect(page).toHaveURL("/login");
    await open(new URL(link!).pathname);
    await expect(page.getByRole("heading", { name: "Ask for a new link" })).toBeVisible();
    await expect(page.getByText("This link has already been used or has expired.")).toBeVisible();
    await page.getByRole("button", { name: "Send link" }).click();
    await expect(page.getByText("Please input your E-mail!")).toBeVisible();
    await page.getByLabel("E-mail").fill("partner2@example.org");
    await page.getByRole("button", { name: "Send link" }).click();
    await expect(page).toHaveURL("/login");
    await expect(page.getByRole("status")).toContainText("Email to change password has been sent to given email id!");
    await expect.poll(() => mailbox.received.length).toBe(2);
    expect(linkFrom(mailbox.received[1].raw)).not.toBe(link);
  } finally {
    await mailbox.close();
  }
});

test("?token=true reads 'Resend set password link'", async ({ page, open }) => {
  await open("/reset-password?token=true");
  await expect(page.getByRole("heading", { name: "Resend set password link" })).toBeVisible();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("an unknown link shows the 'already used or expired' page whose form asks for a new link", async ({ page, open }) => {
    await open("/set-password/no-such-link");
    await expect(page.getByText("This link has already been used or has expired.")).toBeVisible();
    // The same answer as for a registered e-mail: the page reveals no account.
    await page.getByLabel("E-mail").fill("stranger@example.org");
    await page.getByRole("button", { name: "Send link" }).click();
    await expect(page).toHaveURL("/login");
    await expect(page.getByRole("status")).toContainText("Email to change password has been sent to given email id!");
  });
});
