/**
 * Refuses text PostgreSQL cannot store: a NUL character (U+0000) anywhere in the body, the params or
 * the query is a 400 before validation, instead of a database error (500) deep inside a route.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ServiceError } from '../services/errors.ts';

/** Depth beyond which nested input is not inspected further (the body limit bounds the size anyway). */
const MAX_DEPTH = 64;

/** Whether `value` holds, at any depth up to MAX_DEPTH, a string or key with a NUL character. */
function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((item) => containsNul(item, depth + 1));
  return Object.entries(value).some(([key, item]) => key.includes('\u0000') || containsNul(item, depth + 1));
}

async function textInputPlugin(app: FastifyInstance): Promise<void> {
  app.addHook('preValidation', async (request) => {
    for (const [where, value] of [
      ['body', request.body],
      ['params', request.params],
      ['query', request.query],
    ] as const) {
      if (containsNul(value)) throw new ServiceError('bad_request', `The request ${where} contains a NUL character.`);
    }
  });
}

export default fp(textInputPlugin, { name: 'text-input' });
