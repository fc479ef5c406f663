import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  to: string[];
  raw: string;
}

/** A real SMTP listener on the port the test server sends to. */
export function startMailbox(port = Number(process.env.E2E_SMTP_PORT || 2526)) {
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
    server.listen(port, "127.0.0.1", () => resolve({ received, close: () => new Promise((done) => server.close(() => done())) }));
  });
}

/** The link in a quoted-printable body may be folded with "=" soft line breaks. */
export function linkFrom(raw: string) {
  const unfolded = raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
  return /http:\/\/localhost:\d+\/set-password\/[\w-]+/.exec(unfolded)?.[0];
}
