/**
 * The one probe of the Gatecheck server (issue 12): GET /api/health through the api-client, which
 * reports the answer (or its absence) to lib/reachability.ts. Used by the app's 'Offline' strip and
 * by the scanner's offline mode, every `OFFLINE_PROBE_INTERVAL_MS` (config/constants.ts) while they
 * think the server is away.
 */
import { apiPaths, HealthResponse } from '@gatecheck/contract';
import { apiRequest } from './api-client.ts';

/** Resolves when the server answers GET /api/health. @throws {ApiError} when it does not (or `signal` aborts). */
export async function probeServer(signal?: AbortSignal): Promise<void> {
  await apiRequest(apiPaths.health, { schema: HealthResponse, signal, token: null });
}
