/**
 * The built portal's HTTP edge as a client sees it on the wire: a body the portal refuses without
 * reading it never stalls the connection it came on, the cross-site guard reads Referer and
 * Sec-Fetch-Site when Origin is missing, and forwarded addresses count only from TRUST_PROXY.
 */
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESET_REQUESTS_PER_IP } from "~/models/rate-limit.server";
import { SERVER_URL, freePort, freshDatabase, startPortal, type PortalProcess } from "./support/server";

let portal: PortalProcess;
let behindProxy: PortalProcess;

async function started(name: string, env: Record<string, string> = {}) {
  const database = SERVER_URL ? { DATABASE_URL: await freshDatabase(name) } : {};
  const server = startPortal({ ...database, ...env }, await freePort());
  // A first start seeds its database: slow on a busy machine.
  await server.ready(110_000);
  return server;
}

beforeAll(async () => {
  portal = await started("process_http_hardening");
});
afterAll(async () => {
  await Promise.all([portal?.stop(), behindProxy?.stop()]);
});

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A keep-alive connection written to byte for byte, reading whole answers off it as a proxy would. */
class Connection {
  private received = Buffer.alloc(0);
  closed = false;
  error: Error | undefined;
  private readonly socket: net.Socket;

  constructor(port: number) {
    this.socket = net.connect(port, "127.0.0.1");
    this.socket.on("data", (chunk: Buffer) => (this.received = Buffer.concat([this.received, chunk])));
    this.socket.on("error", (error) => (this.error = error));
    this.socket.on("close", () => (this.closed = true));
  }

  send(text: string) {
    this.socket.write(text);
  }

  /** The next whole answer, or null when the connection closes or `timeoutMs` passes first. */
  async answer(timeoutMs: number): Promise<Answer | null> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const answer = this.takeAnswer();
      if (answer) return answer;
      if (this.closed) return null;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return null;
  }

  /** Whether the portal closes the connection within `timeoutMs`. */
  async closes(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!this.closed && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    return this.closed;
  }

  end() {
    this.socket.destroy();
  }

  private takeAnswer(): Answer | null {
    const headEnd = this.received.indexOf("\r\n\r\n");
    if (headEnd === -1) return null;
    const [statusLine, ...lines] = this.received.subarray(0, headEnd).toString("latin1").split("\r\n");
    const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]));
    let rest = this.received.subarray(headEnd + 4);
    let body = "";
    if (headers["transfer-encoding"] === "chunked") {
      for (;;) {
        const sizeEnd = rest.indexOf("\r\n");
        if (sizeEnd === -1) return null;
        const size = parseInt(rest.subarray(0, sizeEnd).toString("latin1"), 16);
        if (rest.length < sizeEnd + 2 + size + 2) return null;
        body += rest.subarray(sizeEnd + 2, sizeEnd + 2 + size).toString("utf8");
        rest = rest.subarray(sizeEnd + 2 + size + 2);
        if (size === 0) break;
      }
    } else {
      const length = Number(headers["content-length"] ?? 0);
      if (rest.length < length) return null;
      body = rest.subarray(0, length).toString("utf8");
      rest = rest.subarray(length);
    }
    this.received = Buffer.from(rest);
    return { status: Number(statusLine.split(" ")[1]), headers, body };
  }
}

const BODY = "x".repeat(200 * 1024);
const healthz = (port: number) => `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`;
const withLength = (port: number, path: string, headers: string, body = BODY) =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${headers}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
const chunked = (port: number, path: string, headers: string) =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${headers}Transfer-Encoding: chunked\r\n\r\n${BODY.length.toString(16)}\r\n${BODY}\r\n0\r\n\r\n`;

describe("a body refused unread does not stall its connection", () => {
  const FORM = "Content-Type: application/x-www-form-urlencoded\r\n";
  const cases: { name: string; request: (port: number) => string; status: number }[] = [
    { name: "200 KB of text/plain to the API sign-in (415)", request: (port) => withLength(port, "/api/login/", "Content-Type: text/plain\r\n"), status: 415 },
    { name: "a 200 KB form to /login, over the form limit (413)", request: (port) => withLength(port, "/login", FORM), status: 413 },
    {
      name: "200 KB of JSON to the API sign-in, over its limit (413)",
      request: (port) => withLength(port, "/api/login/", "Content-Type: application/json\r\n"),
      status: 413,
    },
    { name: "a 200 KB cross-site form (403)", request: (port) => withLength(port, "/login", `${FORM}Origin: http://evil.example\r\n`), status: 403 },
    { name: "200 KB of text/plain to /login (415)", request: (port) => withLength(port, "/login", "Content-Type: text/plain\r\n"), status: 415 },
  ];

  for (const { name, request, status } of cases) {
    it(`${name}: the next request on the connection is answered at once`, async () => {
      const connection = new Connection(portal.port);
      try {
        connection.send(request(portal.port));
        const refused = await connection.answer(5_000);
        expect(refused?.status).toBe(status);
        expect(refused?.headers.connection).toBe("keep-alive");
        connection.send(healthz(portal.port));
        const next = await connection.answer(2_000);
        expect(next?.status).toBe(200);
        expect(JSON.parse(next!.body)).toMatchObject({ status: "ok" });
      } finally {
        connection.end();
      }
    });
  }

  it("the refusal and the next request sent together, as a pipelining client does, are both answered", async () => {
    const connection = new Connection(portal.port);
    try {
      connection.send(withLength(portal.port, "/api/login/", "Content-Type: text/plain\r\n") + healthz(portal.port));
      expect((await connection.answer(5_000))?.status).toBe(415);
      expect((await connection.answer(2_000))?.status).toBe(200);
    } finally {
      connection.end();
    }
  });

  const closing: { name: string; request: (port: number) => string; status: number }[] = [
    { name: "a form in chunks past the form limit", request: (port) => chunked(port, "/login", FORM), status: 413 },
    { name: "text/plain in chunks to the API", request: (port) => chunked(port, "/api/login/", "Content-Type: text/plain\r\n"), status: 415 },
    {
      name: "a body declared over 40 MB",
      request: (port) => `POST /login HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${FORM}Content-Length: ${41 * 1024 * 1024}\r\n\r\n${BODY}`,
      status: 413,
    },
  ];

  for (const { name, request, status } of closing) {
    it(`${name}: answered with Connection: close, and the connection closes right after`, async () => {
      const connection = new Connection(portal.port);
      try {
        connection.send(request(portal.port));
        const refused = await connection.answer(5_000);
        expect(refused?.status).toBe(status);
        expect(refused?.headers.connection).toBe("close");
        expect(await connection.closes(1_000)).toBe(true);
      } finally {
        connection.end();
      }
    });
  }
});

describe("the cross-site guard of the running portal", () => {
  const signIn = (headers: Record<string, string>) =>
    fetch(`${portal.baseUrl}/login`, { method: "POST", headers, body: new URLSearchParams({ email: "guard@example.org", password: "x" }), redirect: "manual" });

  it("without Origin, a foreign Referer is refused and the portal's own accepted", async () => {
    const foreign = await signIn({ Referer: "http://evil.example/page.html" });
    expect(foreign.status).toBe(403);
    expect(await foreign.text()).toBe("Cross-site request refused.");
    // Accepted: the sign-in itself answers (unknown account).
    expect((await signIn({ Referer: `${portal.baseUrl}/login` })).status).toBe(401);
  });

  it("without Origin and Referer, Sec-Fetch-Site cross-site is refused; with none of the three the request is accepted", async () => {
    expect((await signIn({ "Sec-Fetch-Site": "cross-site" })).status).toBe(403);
    expect((await signIn({})).status).toBe(401);
  });
});

describe("TRUST_PROXY", () => {
  beforeAll(async () => {
    behindProxy = await started("process_http_hardening_proxy", { TRUST_PROXY: "loopback" });
  });

  /** A password-link request from `address` as a proxy would name it; its status. */
  const linkRequest = async (server: PortalProcess, address: string, index: number) =>
    (
      await fetch(`${server.baseUrl}/reset-password`, {
        method: "POST",
        headers: { "X-Forwarded-For": address, "X-Forwarded-Proto": "http" },
        body: new URLSearchParams({ email: `nobody${index}@example.org` }),
        redirect: "manual",
      })
    ).status;

  /** Uses up the per-address allowance of password-link requests from `address`. */
  async function exhaust(server: PortalProcess, address: string) {
    for (let index = 0; index < RESET_REQUESTS_PER_IP.limit; index++) expect(await linkRequest(server, address, index)).toBe(302);
    expect(await linkRequest(server, address, 1000)).toBe(429);
  }

  it("by default X-Forwarded-For is ignored: every request counts against the connection's address", async () => {
    await exhaust(portal, "198.51.100.1");
    expect(await linkRequest(portal, "198.51.100.2", 1001)).toBe(429);
  });

  it("TRUST_PROXY=loopback: the address a loopback proxy forwards is the client's", async () => {
    await exhaust(behindProxy, "198.51.100.1");
    expect(await linkRequest(behindProxy, "198.51.100.2", 1001)).toBe(302);
  });

  it("the scheme a proxy forwards counts for the cross-site guard only from a trusted proxy", async () => {
    const post = (server: PortalProcess) =>
      fetch(`${server.baseUrl}/login`, {
        method: "POST",
        headers: { "X-Forwarded-Proto": "https", Origin: `https://127.0.0.1:${server.port}` },
        body: new URLSearchParams({ email: "proto@example.org", password: "x" }),
        redirect: "manual",
      });
    expect((await post(portal)).status).toBe(403);
    expect((await post(behindProxy)).status).toBe(401);
  });
});
