/**
 * GET /api/health's answer (issue 14, docs/decisions/041), written with `zod/mini` because the web
 * app polls it from its first screen (the 'Offline' strip, issue 12 item 1): like sign-in.ts, it
 * must not bring classic zod into the first load (issue 13, docs/decisions/061). The server's type
 * provider and OpenAPI document take it as they take classic schemas.
 */
import { z } from 'zod/mini';

/**
 * GET /api/health: `{ status: 'ok', apiVersion, oldestAppApiVersion }` while the process runs. The two
 * versions (api-version.ts, docs/decisions/094) are for operators and monitors; the app reads them
 * from every answer's headers. Optional here, so the app's probe still hears a server from before them.
 */
export const HealthResponse = z
  .object({
    status: z.literal('ok'),
    apiVersion: z.optional(z.int().check(z.positive())),
    oldestAppApiVersion: z.optional(z.int().check(z.positive())),
  })
  .register(z.globalRegistry, { id: 'HealthResponse' });
export type HealthResponse = z.infer<typeof HealthResponse>;
