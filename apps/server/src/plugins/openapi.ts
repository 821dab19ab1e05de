/**
 * The OpenAPI 3.1 document of the API, generated from the routes' contract schemas (zod, through
 * fastify-type-provider-zod's `jsonSchemaTransform`): the UI at `/api/docs`, the JSON at
 * `/api/docs/json`. It collects routes as they are registered, so register it before the routes.
 * Only `/api` routes are documented (not the web app's static files).
 *
 * Every operation has its route's `operationId`; the contract's named schemas (`.meta({ id })`)
 * are components referenced by `$ref`; every error answer a route can give is declared from the
 * shared list in plugins/error-responses.ts, and signed-in routes (routes/signed-in.ts) declare
 * their security (docs/decisions/023).
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { API_PREFIX } from '@gatecheck/contract';
import type { FastifyInstance, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { documentedErrors } from './error-responses.ts';
import { isDeviceRoute } from '../routes/device-access.ts';
import { isRateLimitedRoute } from './rate-limits.ts';

/** Where the Swagger UI is served; the document is at `${OPENAPI_DOCS_PATH}/json`. */
const OPENAPI_DOCS_PATH = `${API_PREFIX}/docs`;

async function openapiPlugin(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Gatecheck API',
        description:
          'Ticket scanning for event staff. Web clients authenticate with the HttpOnly session cookie set by ' +
          'POST /api/auth/login with useCookie; native clients send `Authorization: Bearer <token>`. ' +
          'Every error is `{ code, message }`.',
        version: '0.1.0',
      },
      components: {
        securitySchemes: {
          bearerToken: { type: 'http', scheme: 'bearer' },
          sessionCookie: { type: 'apiKey', in: 'cookie', name: 'gatecheck_session' },
        },
      },
    },
    transform: (document) => {
      const isApiRoute = document.url.startsWith(`${API_PREFIX}/`) && !document.url.startsWith(OPENAPI_DOCS_PATH);
      if (!isApiRoute) return { schema: { hide: true }, url: document.url };
      const requiresSession = document.route.config?.requiresSession === true;
      const declaredResponses = typeof document.schema?.response === 'object' && document.schema.response !== null ? document.schema.response : {};
      const response = { ...declaredResponses, ...errorResponsesOf(document.route, requiresSession) };
      const transformed = jsonSchemaTransform({ ...document, schema: { ...document.schema, response } });
      const resource = document.url.slice(API_PREFIX.length + 1).split('/')[0] ?? '';
      return {
        ...transformed,
        schema: {
          ...transformed.schema,
          tags: [resource],
          ...(requiresSession ? { security: [{ bearerToken: [] }, { sessionCookie: [] }] } : {}),
        },
      };
    },
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, {
    routePrefix: OPENAPI_DOCS_PATH,
    // No call-outs to swagger.io's validator: the page works offline.
    uiConfig: { validatorUrl: null },
  });
}

/**
 * The error answers of `route` for its document, as response entries (described, body ApiErrorBody),
 * including the statuses the route declares itself with `ruleErrors`.
 */
function errorResponsesOf(route: RouteOptions, requiresSession: boolean): Record<number, unknown> {
  const method = typeof route.method === 'string' ? route.method : (route.method[0] ?? 'GET');
  const declared = Object.keys(route.schema?.response ?? {}).map(Number).filter((status) => status >= 400);
  return documentedErrors(
    {
      method,
      hasParams: route.schema?.params !== undefined,
      requiresSession,
      isRateLimited: isRateLimitedRoute(method, route.url),
      isClosedToDevices: requiresSession && !isDeviceRoute(method, route.url),
    },
    declared,
  );
}

/** Registers the OpenAPI document and its UI; see the module comment. */
export default fp(openapiPlugin, { name: 'openapi' });
