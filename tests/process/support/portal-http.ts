/** Signing in to a running portal over HTTP, as a browser (a session cookie) and as an API client (a bearer token). */

/** The session cookie of a sign-in through the login form. */
export async function signIn(baseUrl: string, email: string, password: string): Promise<string> {
  const answer = await fetch(`${baseUrl}/login`, {
    method: "POST",
    body: new URLSearchParams({ email, password }),
    redirect: "manual",
  });
  if (answer.status !== 302) throw new Error(`Sign-in of ${email} answered ${answer.status}: ${await answer.text()}`);
  return answer.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

/** A bearer token from POST /api/login/. */
export async function apiToken(baseUrl: string, email: string, password: string): Promise<string> {
  const answer = await fetch(`${baseUrl}/api/login/`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  if (!answer.ok) throw new Error(`API sign-in of ${email} answered ${answer.status}: ${await answer.text()}`);
  return ((await answer.json()) as { access: string }).access;
}
