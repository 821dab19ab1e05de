/**
 * The HTML of the password-reset pages (docs/decisions/014): small, server-rendered, no script (the
 * CSP allows none inline and the pages need none), usable with a keyboard and a screen reader. Every
 * value put into the markup goes through `escapeHtml`.
 */
import { PASSWORD_MIN_LENGTH } from '@gatecheck/contract';

/** Where the pages send people afterwards: the web app's sign-in screen (SPEC §2 /login). */
const SIGN_IN_PATH = '/login';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** `text` safe inside HTML text and double- or single-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? character);
}

/** What the form page shows: the token (hidden field) and, after a failed attempt, why. */
export interface ResetFormPage {
  /** The form's own URL (it posts to itself). */
  action: string;
  token: string;
  /** A plain-words problem with the last attempt (shown as an alert), if any. */
  error?: string;
}

/** The page with the new-password form. */
export function renderResetForm(page: ResetFormPage): string {
  const invalid = page.error ? ' aria-invalid="true"' : '';
  const alert = page.error ? `<p class="error" role="alert">${escapeHtml(page.error)}</p>` : '';
  return layout(
    'Choose a new password',
    `<h1>Choose a new password</h1>
    ${alert}
    <form method="post" action="${escapeHtml(page.action)}">
      <input type="hidden" name="token" value="${escapeHtml(page.token)}">
      <p id="password-rules">Use at least ${PASSWORD_MIN_LENGTH} characters.</p>
      <label for="new-password">New password</label>
      <input id="new-password" name="newPassword" type="password" autocomplete="new-password" required minlength="${PASSWORD_MIN_LENGTH}" aria-describedby="password-rules"${invalid}>
      <label for="confirm-password">Confirm new password</label>
      <input id="confirm-password" name="confirmPassword" type="password" autocomplete="new-password" required minlength="${PASSWORD_MIN_LENGTH}"${invalid}>
      <button type="submit">Set new password</button>
    </form>`,
  );
}

/** The page after an attempt: `heading` and `message` in plain words, and a link to sign in. */
export function renderResetOutcome(outcome: { heading: string; message: string }): string {
  return layout(
    outcome.heading,
    `<h1>${escapeHtml(outcome.heading)}</h1>
    <p>${escapeHtml(outcome.message)}</p>
    <p><a href="${SIGN_IN_PATH}">Go to sign in</a></p>`,
  );
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="robots" content="noindex">
  <title>${escapeHtml(title)} · Gatecheck</title>
  <style>
    body { font-family: system-ui, sans-serif; margin: 0; padding: 2rem 1rem; background: #f8fafc; color: #0f172a; }
    main { max-width: 26rem; margin: 0 auto; background: #fff; padding: 1.5rem; border-radius: 0.75rem; box-shadow: 0 1px 3px rgb(0 0 0 / 0.15); }
    h1 { font-size: 1.375rem; margin-top: 0; }
    label { display: block; font-weight: 600; margin-top: 1rem; }
    input { display: block; width: 100%; box-sizing: border-box; font-size: 1rem; padding: 0.625rem; margin-top: 0.25rem; border: 1px solid #64748b; border-radius: 0.375rem; }
    button { margin-top: 1.5rem; width: 100%; font-size: 1rem; padding: 0.75rem; border: 0; border-radius: 0.375rem; background: #1d4ed8; color: #fff; cursor: pointer; }
    :focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
    .error { color: #b91c1c; font-weight: 600; }
    a { color: #1d4ed8; }
  </style>
</head>
<body>
  <main>
    ${body}
  </main>
</body>
</html>
`;
}
