/**
 * GET /api/health's answer (issue 14, docs/decisions/041), written with `zod/mini` because the web
 * app polls it from its first screen (the 'Offline' strip, issue 12 item 1): like sign-in.ts, it
 * must not bring classic zod into the first load (issue 13, docs/decisions/061). The server's type
 * provider and OpenAPI document take it as they take classic schemas.
 */
import { z } from 'zod/mini';

/** GET /api/health: always `{ status: 'ok' }` while the process runs. */
export const HealthResponse = z.object({ status: z.literal('ok') }).register(z.globalRegistry, { id: 'HealthResponse' });
export type HealthResponse = z.infer<typeof HealthResponse>;
