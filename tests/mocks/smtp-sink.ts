/**
 * A real SMTP server (smtp-server) on a free port that keeps what it receives, and can refuse
 * mail for a while to imitate an outage. A hook set with `onceBeforeAccepting` runs after a message is kept and
 * before the server answers 250 (a fault injected between "stored" and "accepted").
 */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export async function startSmtpSink() {
  const received: ReceivedMail[] = [];
  let refusing = false;
  let beforeAccepting: ((mail: ReceivedMail) => Promise<void>) | null = null;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onMailFrom(_address, _session, callback) {
      if (refusing) {
        const err = new Error("Service temporarily unavailable") as Error & { responseCode: number };
        err.responseCode = 421;
        return callback(err);
      }
      callback();
    },
    onData(stream, session, callback) {
      let raw = "";
      stream.setEncoding("utf8");
      stream.on("data", (chunk: string) => (raw += chunk));
      stream.on("end", () => {
        const mail = { from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "", to: session.envelope.rcptTo.map((r) => r.address), raw };
        received.push(mail);
        const hook = beforeAccepting;
        beforeAccepting = null;
        if (!hook) return callback();
        hook(mail).then(() => callback(), (error: Error) => callback(error));
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refuse(on: boolean) {
      refusing = on;
    },
    /** Runs `hook` once, on the next message, before the server accepts it. */
    onceBeforeAccepting(hook: (mail: ReceivedMail) => Promise<void>) {
      beforeAccepting = hook;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
