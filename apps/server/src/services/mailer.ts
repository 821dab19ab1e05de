/**
 * Outgoing e-mail through nodemailer. With an SMTP URL (`SMTP_URL`) mail goes to that server; without
 * one, nodemailer's stream transport renders each message and it is written as an RFC 822 `.eml` file
 * to the outbox folder (`$DATA_DIR/outbox`), so a person running Gatecheck locally can open it.
 *
 * Sending is started in the background (`enqueue`): a request never waits for, or reveals the timing
 * of, a mail server. `drain()` waits for every started send (graceful shutdown, tests).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

/** One plain-text message. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Where a sent message went: the SMTP message id, and for the outbox the absolute .eml path. */
interface SentMail {
  messageId: string;
  file: string | undefined;
}

/** The few logger methods the mailer uses (pino-compatible). */
interface MailLog {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** How to deliver: an SMTP URL (`smtp://user:pass@host:587`, `smtps://…`) or else the outbox folder. */
export interface MailerOptions {
  smtpUrl: string | undefined;
  outboxDir: string;
  /** The From header, e.g. `Gatecheck <no-reply@example.com>`. */
  from: string;
  log: MailLog;
}

/** Sends mail; see the module comment. */
export interface Mailer {
  /**
   * Sends `message` now and waits for it.
   * @throws the transport's error (SMTP refused, outbox not writable).
   */
  send(message: MailMessage): Promise<SentMail>;
  /**
   * Starts sending `message` in the background (it may still be being composed); a failure, of the
   * composing too, is logged, never thrown.
   */
  enqueue(message: MailMessage | Promise<MailMessage>): void;
  /** Resolves when every message started so far has been sent or has failed. */
  drain(): Promise<void>;
  /** Waits for pending mail, then closes the transport's connections. */
  close(): Promise<void>;
}

/** Creates the mailer for `options` (no connection is opened until the first message). */
export function createMailer(options: MailerOptions): Mailer {
  const pending = new Set<Promise<unknown>>();

  const send = options.smtpUrl ? smtpSender(options.smtpUrl, options.from) : outboxSender(options.outboxDir, options.from);

  async function sendAndLog(message: MailMessage): Promise<SentMail> {
    const sent = await send.deliver(message);
    // The recipient and subject only: the body may hold a reset token.
    options.log.info({ to: message.to, subject: message.subject, ...sent }, 'mail sent');
    return sent;
  }

  const drain = async (): Promise<void> => {
    while (pending.size > 0) await Promise.allSettled([...pending]);
  };

  return {
    send: sendAndLog,
    enqueue(message) {
      const sending = Promise.resolve(message)
        .then(sendAndLog)
        .catch((error: unknown) => {
          options.log.error({ err: error }, 'mail could not be sent');
        });
      pending.add(sending);
      void sending.finally(() => pending.delete(sending));
    },
    drain,
    async close() {
      await drain();
      send.close();
    },
  };
}

interface Sender {
  deliver(message: MailMessage): Promise<SentMail>;
  close(): void;
}

function smtpSender(smtpUrl: string, from: string): Sender {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async deliver(message) {
      const info = await transport.sendMail({ from, ...message });
      return { messageId: info.messageId, file: undefined };
    },
    close: () => transport.close(),
  };
}

function outboxSender(outboxDir: string, from: string): Sender {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async deliver(message) {
      const info = await transport.sendMail({ from, ...message });
      await mkdir(outboxDir, { recursive: true });
      // Sortable by time, unique within the millisecond.
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
      const file = path.join(outboxDir, name);
      await writeFile(file, info.message, { mode: 0o600 });
      return { messageId: info.messageId, file };
    },
    close: () => transport.close(),
  };
}
