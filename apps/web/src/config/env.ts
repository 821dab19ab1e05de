/**
 * The web app's configuration, read from Vite's `import.meta.env` once and validated with zod
 * (`zod/mini`: this runs on the first load, issue 13).
 * Nothing else reads `import.meta.env`.
 *
 * - `VITE_API_BASE_URL`: the API base ({host} of SPEC §7). Default '/api' (same origin as the app);
 *   the native app sets an absolute URL such as 'https://gate.example.com/api'.
 * - `VITE_IP_LOOKUP_URL`: third-party IP lookup used to prefill the sign-up country (SPEC §7).
 *   Unset (the default, and in tests) turns the lookup off.
 *
 * @throws {z.ZodError} at import time when a variable is malformed (for example a non-URL lookup URL).
 */
import { z } from 'zod/mini';

const EnvSchema = z.object({
  VITE_API_BASE_URL: z.pipe(
    z._default(z.string().check(z.trim(), z.minLength(1)), '/api').check(
      z.refine((value: string) => value.startsWith('/') || URL.canParse(value), 'must be a path or an absolute URL'),
    ),
    z.transform((value: string) => value.replace(/\/+$/, '')),
  ),
  VITE_IP_LOOKUP_URL: z.union([z.optional(z.url()), z.pipe(z.literal(''), z.transform(() => undefined))]),
});

export interface Env {
  /** API base without a trailing slash, e.g. '/api' or 'https://gate.example.com/api'. */
  apiBaseUrl: string;
  /** IP lookup URL, or undefined when the lookup is off. */
  ipLookupUrl: string | undefined;
}

/** Validates raw `VITE_*` variables. @throws {z.ZodError} naming the malformed variable */
export function parseEnv(raw: Record<string, unknown>): Env {
  const parsed = z.parse(EnvSchema, raw);
  return { apiBaseUrl: parsed.VITE_API_BASE_URL, ipLookupUrl: parsed.VITE_IP_LOOKUP_URL };
}

export const env: Env = parseEnv(import.meta.env);
