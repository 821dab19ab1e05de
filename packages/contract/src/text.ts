/**
 * Text that may enter the system: every text field of every request is checked here, in the
 * contract, so the server (and any client that validates) refuses the same strings.
 *
 * JSON can carry strings that are not text: a lone UTF-16 surrogate (`"\udc4c"`, e.g. from a camera
 * decoding a damaged or binary QR code) is valid JSON but has no UTF-8 form, and PostgreSQL stores
 * neither it nor a NUL character (U+0000). Such a string fails deep inside SQL with a 500 unless it
 * is caught at the edge (issue 15 item 18).
 */
import { z } from 'zod';

/** What a refused text field's 400 says (after the field's name). */
export const MALFORMED_TEXT_MESSAGE = 'must be well-formed Unicode text without NUL characters';

/**
 * Whether `text` can be stored and shown: well-formed Unicode (`String.prototype.isWellFormed`: no
 * lone surrogate) and no NUL character.
 */
export function isStorableText(text: string): boolean {
  return text.isWellFormed() && !text.includes('\u0000');
}

/**
 * A request text field: a string that is `isStorableText`, checked before any other rule of the
 * field (so the 400 names the real problem). Chain the field's own rules after it:
 * `requestText().trim().min(1).max(254)`.
 */
export function requestText(): z.ZodString {
  return z.string().check(
    z.refine(isStorableText, { message: MALFORMED_TEXT_MESSAGE, abort: true }),
  );
}

/**
 * `text` made storable for a log: each lone surrogate becomes `\uXXXX` (its code unit in hex,
 * upper case) and a NUL becomes `\u0000`; everything else is kept. Storable text comes back unchanged.
 */
export function renderTextSafely(text: string): string {
  if (isStorableText(text)) return text;
  let out = '';
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    const isHigh = unit >= 0xd800 && unit <= 0xdbff;
    const next = text.charCodeAt(index + 1);
    if (isHigh && next >= 0xdc00 && next <= 0xdfff) {
      out += text.slice(index, index + 2);
      index += 1;
    } else if (unit === 0 || (unit >= 0xd800 && unit <= 0xdfff)) {
      out += `\\u${unit.toString(16).toUpperCase().padStart(4, '0')}`;
    } else {
      out += text[index];
    }
  }
  return out;
}
