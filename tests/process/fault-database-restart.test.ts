/**
 * PostgreSQL stopped for about 3 s and started again under the running portal (a cluster of the
 * test's own), while a signed-in page, /healthz and an API call are requested without pause.
 * During the outage every answer is a clean error (an HTML page without a stack trace, JSON for
 * /healthz and the API) and comes within a bound; /healthz says 503 within about a second; within
 * 2 s of the database's return every kind of request succeeds again, without a restart.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresCluster, type PostgresCluster } from "./support/postgres-cluster";
import { apiToken, signIn } from "./support/portal-http";
import { freePort, freshDatabase, startPortal, type PortalProcess } from "./support/server";

const PARTNER = { email: "partner1@example.org", password: "partner-pass-1" };
const OUTAGE_MS = 3000;
/** No answer, success or error, may take longer than this. */
const ANSWER_BOUND_MS = 3000;
/** /healthz with the database down. */
const HEALTH_BOUND_MS = 1000;
/** From the database accepting connections again to every request succeeding. */
const RECOVERY_BOUND_MS = 2000;
/** Scheduling slack on a machine busy with other tests. */
const SLACK_MS = 500;

const kinds = ["page", "healthz", "api"] as const;
type Kind = (typeof kinds)[number];

interface Answer {
  kind: Kind;
  startedAt: number;
  endedAt: number;
  status: number;
  contentType: string;
  body: string;
}

const STACK_LINE = /\n\s+at .+[:(]\d+:\d+\)?/;

let cluster: PostgresCluster;
let portal: PortalProcess;
let cookie: string;
let token: string;

beforeAll(async () => {
  cluster = await createPostgresCluster();
  const databaseUrl = await freshDatabase("portal_fault_restart", cluster.url("postgres"));
  portal = startPortal({ DATABASE_URL: databaseUrl }, await freePort());
  await portal.ready();
  cookie = await signIn(portal.baseUrl, PARTNER.email, PARTNER.password);
  token = await apiToken(portal.baseUrl, PARTNER.email, PARTNER.password);
});

afterAll(async () => {
  await portal?.stop();
  await cluster?.destroy();
});

function request(kind: Kind): Promise<Response> {
  const signal = AbortSignal.timeout(10_000);
  if (kind === "page") return fetch(`${portal.baseUrl}/partner/dashboard`, { headers: { cookie }, redirect: "manual", signal });
  if (kind === "healthz") return fetch(`${portal.baseUrl}/healthz`, { signal });
  return fetch(`${portal.baseUrl}/api/template/sales/api`, { headers: { authorization: `Bearer ${token}` }, signal });
}

/** Requests of one kind, one after the other, until `running()` turns false. */
async function flow(kind: Kind, running: () => boolean, answers: Answer[]) {
  while (running()) {
    const startedAt = performance.now();
    let status = 0;
    let contentType = "";
    let body = "";
    try {
      const answer = await request(kind);
      status = answer.status;
      contentType = answer.headers.get("content-type") ?? "";
      body = await answer.text();
    } catch (error) {
      body = String(error);
    }
    answers.push({ kind, startedAt, endedAt: performance.now(), status, contentType, body });
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const took = (answer: Answer) => Math.round(answer.endedAt - answer.startedAt);
const describeAnswer = (answer: Answer) => `${answer.kind} ${answer.status} in ${took(answer)} ms: ${answer.body.slice(0, 200)}`;

/** A clean refusal: an error page without a stack trace, or the 503 JSON of /healthz and the API. */
function cleanError(answer: Answer): boolean {
  if (answer.status < 500 || STACK_LINE.test(answer.body)) return false;
  if (answer.kind === "page") return answer.contentType.startsWith("text/html");
  if (!answer.contentType.startsWith("application/json")) return false;
  const body = JSON.parse(answer.body) as { status?: string };
  // The API says 503 (try again) like /healthz, not 500.
  return answer.status === 503 && body.status === (answer.kind === "healthz" ? "database unavailable" : "error");
}

describe("PostgreSQL restarted while requests flow", () => {
  it("answers clean errors within bounds during the outage and recovers by itself within 2 s of the database's return", async () => {
    const answers: Answer[] = [];
    let running = true;
    const flows = kinds.map((kind) => flow(kind, () => running, answers));

    // Each kind answers before the stop (a first page is slower: its modules load).
    while (!kinds.every((kind) => answers.some((answer) => answer.kind === kind && answer.status === 200))) await sleep(100);
    await sleep(1000);
    const stopping = performance.now();
    await cluster.stop();
    const down = performance.now();
    await sleep(OUTAGE_MS);
    const starting = performance.now();
    await cluster.start();
    const back = performance.now();
    await sleep(RECOVERY_BOUND_MS + 2000);
    running = false;
    await Promise.all(flows);

    const slowest = (kind: Kind, from: number, to: number) =>
      Math.max(0, ...answers.filter((answer) => answer.kind === kind && answer.startedAt >= from && answer.startedAt < to).map(took));
    /** From the database's return to the end of the first of the successes that follow every failure of the kind (null: none). */
    const recoveredAfter = (kind: Kind) => {
      const after = answers.filter((answer) => answer.kind === kind && answer.startedAt >= back);
      const lastFailure = after.reduce((last, answer, index) => (answer.status !== 200 ? index : last), -1);
      const firstSuccess = after[lastFailure + 1];
      return firstSuccess ? Math.round(firstSuccess.endedAt - back) : null;
    };
    const recovered = Object.fromEntries(kinds.map((kind) => [kind, recoveredAfter(kind)]));
    console.info(
      JSON.stringify({
        stopMs: Math.round(down - stopping),
        startMs: Math.round(back - starting),
        slowestWhileDownMs: Object.fromEntries(kinds.map((kind) => [kind, slowest(kind, down, starting)])),
        slowestAfterReturnMs: Object.fromEntries(kinds.map((kind) => [kind, slowest(kind, back, Infinity)])),
        recoveredMs: recovered,
        answers: answers.length,
      }),
    );

    expect(portal.child.exitCode, `the portal exited:\n${portal.output().slice(-4000)}`).toBeNull();
    for (const answer of answers) {
      expect(answer.status === 200 || cleanError(answer), describeAnswer(answer)).toBe(true);
      expect(took(answer), describeAnswer(answer)).toBeLessThanOrEqual(ANSWER_BOUND_MS);
    }
    for (const kind of kinds) {
      // Before the stop, everything answers.
      const before = answers.filter((answer) => answer.kind === kind && answer.endedAt < stopping);
      expect(before.length, kind).toBeGreaterThan(0);
      expect(
        before.every((answer) => answer.status === 200),
        kind,
      ).toBe(true);
      // While the database is down, nothing does.
      const whileDown = answers.filter((answer) => answer.kind === kind && answer.startedAt >= down && answer.endedAt <= starting);
      expect(whileDown.length, kind).toBeGreaterThan(0);
      expect(
        whileDown.every((answer) => answer.status >= 500),
        kind,
      ).toBe(true);
      // Back: the kind succeeds again within 2 s, and every request sent from then on succeeds.
      expect(recovered[kind], kind).not.toBeNull();
      expect(recovered[kind], kind).toBeLessThanOrEqual(RECOVERY_BOUND_MS);
      for (const answer of answers.filter((answer) => answer.kind === kind && answer.startedAt >= back + RECOVERY_BOUND_MS)) {
        expect(answer.status, describeAnswer(answer)).toBe(200);
      }
    }
    // With the database down, /healthz says so at once.
    for (const answer of answers.filter((answer) => answer.kind === "healthz" && answer.startedAt >= down && answer.endedAt <= starting)) {
      expect(answer.status, describeAnswer(answer)).toBe(503);
      expect(took(answer), describeAnswer(answer)).toBeLessThanOrEqual(HEALTH_BOUND_MS + SLACK_MS);
    }
  });
});
