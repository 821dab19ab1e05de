/**
 * Answers of the operations endpoints a load balancer or an orchestrator polls (issue 14, not in
 * SPEC §7; docs/decisions/041): GET /api/health (the process is up) and GET /api/ready (it can serve:
 * the database answers, every migration is applied, and it is not shutting down). A server that is
 * not ready answers 503 `{ code: 'not_ready', message }` instead.
 */
import { z } from 'zod';

/** GET /api/health: always `{ status: 'ok' }` while the process runs (in zod/mini: health.ts). */
export { HealthResponse } from './health.ts';

/** GET /api/ready when the server can take traffic. */
export const ReadyResponse = z.object({ status: z.literal('ready') }).meta({ id: 'ReadyResponse' });
export type ReadyResponse = z.infer<typeof ReadyResponse>;
