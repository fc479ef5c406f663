import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { startMailbox } from "./support/mailbox";
import { createPartner, mailTo } from "./support/partners";

const undeliveredRow = (page: Page, email: string) => page.getByTestId("undelivered-mails").getByRole("row").filter({ hasText: email });

/**
 * A mail given up for real: a new partner's password link, sent while no mailbox listens on the
 * test server's SMTP port. The test server gives a mail up after one retry a second later
 * (support/start-server.ts), so it is listed on the settings page within seconds.
 */
async function undeliveredMail(page: Page, open: (path: string) => Promise<unknown>, label: string) {
  const partner = await createPartner(page, label);
  await expect(async () => {
    await open("/admin/settings");
    await expect(undeliveredRow(page, partner.email)).toBeVisible({ timeout: 500 });
  }).toPass({ timeout: 20_000 });
  const row = undeliveredRow(page, partner.email);
  await expect(row).toContainText("Set password link");
  await expect(row).toContainText("Set your MPP Data Portal password");
  await expect(row).toContainText(/connect ECONNREFUSED 127\.0\.0\.1:\d+/);
  // Queued at: the page's date-time format ('Do MMM YYYY, hh:mm A').
  await expect(row.getByRole("cell").nth(5)).toHaveText(/^\d{1,2}(st|nd|rd|th) [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} (AM|PM)$/);
  return partner;
}

/** Send again: the mail is delivered this time, the page says so and no longer lists it. */
async function sendAgain(page: Page, email: string) {
  const mailbox = await startMailbox();
  try {
    await undeliveredRow(page, email).getByRole("button", { name: "Send again" }).click();
    await expect(page).toHaveURL("/admin/settings");
    await expect(page.getByRole("status")).toContainText("Mail queued again.");
    await expect(undeliveredRow(page, email)).toHaveCount(0);
    await mailTo(mailbox.received, email);
  } finally {
    await mailbox.close();
  }
}

test.describe("undelivered mails with JavaScript", () => {
  test("a mail given up is listed with its error; STAFF sees it without a button, ADMIN sends it again", async ({ page, open, signIn }) => {
    await signIn("admin");
    const partner = await undeliveredMail(page, open, "Undelivered");

    await page.context().clearCookies();
    await signIn("staff");
    await open("/admin/settings");
    await expect(undeliveredRow(page, partner.email)).toContainText("ECONNREFUSED");
    await expect(page.getByTestId("undelivered-mails").getByRole("button")).toHaveCount(0);

    await page.context().clearCookies();
    await signIn("admin");
    await open("/admin/settings");
    await sendAgain(page, partner.email);
  });
});

test.describe("undelivered mails without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("Send again is a plain form post: the toast, and the row is gone", async ({ page, open, signIn }) => {
    await signIn("admin");
    const partner = await undeliveredMail(page, open, "UndeliveredPlain");
    await sendAgain(page, partner.email);
  });
});
