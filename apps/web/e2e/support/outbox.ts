/**
 * The e-mail the e2e server wrote: without SMTP the server writes every message as an .eml file to
 * `$DATA_DIR/outbox` (docs/decisions/012), which is what a person would find in their inbox.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@playwright/test';

/** The .eml files sent to `email`, bodies decoded from quoted-printable soft line breaks and `=3D`. */
function mailsTo(dataDir: string, email: string): string[] {
  const outbox = join(dataDir, 'outbox');
  let names: string[];
  try {
    names = readdirSync(outbox).sort();
  } catch {
    return [];
  }
  return names
    .map((name) => readFileSync(join(outbox, name), 'utf8').replace(/=\r?\n/g, '').replace(/=3D/g, '='))
    .filter((mail) => mail.includes(`To: ${email}`));
}

/**
 * Waits for the `count`-th password-reset mail to `email` (mail goes out in the background) and
 * returns the link in it.
 * @throws when no such mail with a link arrives within the expect timeout.
 */
export async function waitForResetLink(dataDir: string, email: string, count = 1): Promise<string> {
  await expect.poll(() => mailsTo(dataDir, email).length, { message: `reset mail to ${email}` }).toBeGreaterThanOrEqual(count);
  const mail = mailsTo(dataDir, email)[count - 1] ?? '';
  const link = /https?:\/\/\S+\/reset-password\?token=[A-Za-z0-9_-]+/.exec(mail)?.[0];
  if (!link) throw new Error(`no reset link in the mail to ${email}:\n${mail}`);
  return link;
}

/**
 * Waits for the invitation mail to `email` (issue 30 item 5) and returns its link's path and query
 * (`/invitation?token=…`), to open on the origin the test's browser uses.
 * @throws when no such mail with a link arrives within the expect timeout.
 */
export async function waitForInvitationPath(dataDir: string, email: string): Promise<string> {
  await expect.poll(() => mailsTo(dataDir, email).length, { message: `invitation mail to ${email}` }).toBeGreaterThanOrEqual(1);
  const mail = mailsTo(dataDir, email).at(-1) ?? '';
  const link = /https?:\/\/\S+\/invitation\?token=[A-Za-z0-9_-]+/.exec(mail)?.[0];
  if (!link) throw new Error(`no invitation link in the mail to ${email}:\n${mail}`);
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}
