/**
 * Makes the mailer available as `app.mailer`: SMTP through nodemailer when SMTP_URL is set, else
 * .eml files in `$DATA_DIR/outbox` (docs/decisions/012). Mail still queued when the app closes is
 * sent (or written) before the close finishes, so before the database closes too.
 */
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createMailer, type Mailer } from '../services/mailer.ts';

/** The folder inside DATA_DIR where mail is written as .eml files when no SMTP server is configured. */
const OUTBOX_DIR_NAME = 'outbox';

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

async function mailerPlugin(app: FastifyInstance): Promise<void> {
  const mailer = createMailer({
    smtpUrl: app.config.smtpUrl,
    outboxDir: path.join(app.config.dataDir, OUTBOX_DIR_NAME),
    from: app.config.mailFrom,
    log: app.log,
  });
  app.decorate('mailer', mailer);
  app.addHook('onClose', () => mailer.close());
}

export default fp(mailerPlugin, { name: 'mailer' });
