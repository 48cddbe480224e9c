// A real SMTP server on 127.0.0.1 (smtp-server) that reads each message with mailparser and records it.
// It can be stopped and started again on the same port (SMTP down, then up), can refuse every login, and can
// demand one (a server that takes no message from a client that did not log in).
import type { AddressInfo } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export const FAKE_SMTP_USER = "mailer";
export const FAKE_SMTP_PASS = "smtp-pass-123";

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** The login used, or null when the client sent none. */
  user: string | null;
  parsed: ParsedMail;
}

export interface SmtpFake {
  host: string;
  port: number;
  /** Every message accepted, oldest first. */
  messages: ReceivedMail[];
  /** Refuse every login (535) until set back to false. */
  refuseAuth: boolean;
  /** How many clients connected, whether or not they logged in. */
  connections: number;
  /** Stops listening (and drops open connections); `start()` listens on the same port again. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Resolves once `count` messages have arrived (or rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

export interface SmtpFakeOptions {
  /** Credentials checked when a client logs in (default FAKE_SMTP_USER / FAKE_SMTP_PASS). */
  user?: string;
  pass?: string;
  port?: number;
  /** Take no message without a login (default: a login is checked when given, not required). */
  requireAuth?: boolean;
}

export async function startSmtpFake(options: SmtpFakeOptions = {}): Promise<SmtpFake> {
  const user = options.user ?? FAKE_SMTP_USER;
  const pass = options.pass ?? FAKE_SMTP_PASS;
  const messages: ReceivedMail[] = [];
  let server: SMTPServer | undefined;
  let port = options.port ?? 0;

  const fake: SmtpFake = {
    host: "127.0.0.1",
    port,
    messages,
    refuseAuth: false,
    connections: 0,
    async start() {
      if (server) return;
      server = new SMTPServer({
        authOptional: !options.requireAuth,
        allowInsecureAuth: true,
        disabledCommands: ["STARTTLS"],
        logger: false,
        closeTimeout: 200,
        onConnect(_session, callback) {
          fake.connections += 1;
          callback();
        },
        onAuth(auth, _session, callback) {
          if (fake.refuseAuth || auth.username !== user || auth.password !== pass) {
            callback(Object.assign(new Error("Invalid username or password"), { responseCode: 535 }));
            return;
          }
          callback(null, { user: auth.username });
        },
        onData(stream, session, callback) {
          simpleParser(stream).then(
            (parsed) => {
              const to = session.envelope.rcptTo.map((r) => r.address);
              messages.push({
                from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
                to,
                subject: parsed.subject ?? "",
                text: parsed.text ?? "",
                html: typeof parsed.html === "string" ? parsed.html : "",
                user: typeof session.user === "string" ? session.user : null,
                parsed,
              });
              callback();
            },
            (error: Error) => callback(error),
          );
        },
      });
      server.on("error", () => {});
      const listening = server;
      await new Promise<void>((resolve, reject) => {
        listening.server.once("error", reject);
        listening.listen(port, "127.0.0.1", () => resolve());
      });
      port = (listening.server.address() as AddressInfo).port;
      fake.port = port;
    },
    async stop() {
      const running = server;
      server = undefined;
      if (!running) return;
      await new Promise<void>((resolve) => running.close(() => resolve()));
    },
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (messages.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} emails, got ${messages.length}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return messages;
    },
    close() {
      return fake.stop();
    },
  };
  await fake.start();
  return fake;
}
