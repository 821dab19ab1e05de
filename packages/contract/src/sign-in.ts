/**
 * What the web app's sign-in screen reads from the API (SPEC §4, §7), written with `zod/mini`: the
 * same core as classic zod (the server's type provider and OpenAPI document take either), but its
 * functions tree-shake, so the first load of the web app does not carry classic zod's methods
 * (issue 13: ≤ 110 kB gzip before the sign-in form is usable; docs/decisions/061). The other
 * `/auth/*` schemas are in auth.ts.
 */
import { z } from 'zod/mini';

/** Longest password accepted, in characters (bounds hashing work per request). */
export const PASSWORD_MAX_LENGTH = 256;
/** Shortest password accepted for new passwords (register, change, reset), in characters. */
export const PASSWORD_MIN_LENGTH = 8;

/**
 * A login answer as the client reads it (SPEC §7: "sessionToken or token"): either name, so the
 * client also works against a server that answers `sessionToken`. Not part of our API document.
 */
export const LoginAnswer = z.object({
  token: z.optional(z.string()),
  sessionToken: z.optional(z.string()),
  expiresAt: z.optional(z.string()),
});
export type LoginAnswer = z.infer<typeof LoginAnswer>;

/**
 * GET /auth/options: what the sign-in screen may offer (not in SPEC §7; docs/decisions/018). Public,
 * no session. `isSignUpAllowed` follows the server's `ALLOW_SIGNUP` setting (off by default): the web
 * shows 'Sign up' only when it is true, and POST /auth/register answers 403 otherwise.
 */
export const AuthOptionsResponse = z.object({
  isSignUpAllowed: z.boolean(),
}).register(z.globalRegistry, { id: 'AuthOptionsResponse' });
export type AuthOptionsResponse = z.infer<typeof AuthOptionsResponse>;
