/**
 * Checks answers of the API against its own OpenAPI document (issue 15 item 15), as a validating
 * proxy would: the status must be declared for the operation, the content type must be one the
 * answer declares, and the body must match the declared schema (JSON Schema 2020-12, validated by
 * ajv with ajv-formats, `$ref`s into `#/components/schemas` resolved in the document itself).
 * Besides, every error answer under /api must be `{ code, message }` with the security headers.
 *
 * createTestApp installs `checkAnswersAgainstDocument` on every test app, so each answer the server
 * suite produces is checked; a mismatch fails the test that produced it.
 */
import { ApiErrorBody } from '@gatecheck/contract';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { z } from 'zod';

/** The parts of the OpenAPI document the check reads. */
const ApiDocument = z.looseObject({
  paths: z.record(
    z.string(),
    z.record(
      z.string(),
      z.looseObject({
        operationId: z.string().optional(),
        responses: z.record(z.string(), z.looseObject({ content: z.record(z.string(), z.looseObject({ schema: z.unknown() })).optional() })),
      }),
    ),
  ),
});
type ApiDocument = z.infer<typeof ApiDocument>;

/** One answer as seen on the wire, with the route Fastify matched (its pattern, `/api/x/:id`). */
export interface ObservedAnswer {
  method: string;
  /** Fastify's route pattern of the request, undefined when no route matched. */
  routeUrl: string | undefined;
  url: string;
  status: number;
  contentType: string | undefined;
  /** The body as sent (JSON text for the API); undefined for a file or a stream (a Buffer, a PDF drawn as it is sent), whose status and content type are checked alone. */
  body: string | undefined;
  headers: Record<string, unknown>;
}

const DOCUMENT_ID = 'https://gatecheck.invalid/openapi.json';
/** Headers every answer carries (plugins/security.ts); checked on the /api error answers. */
const SECURITY_HEADERS = ['content-security-policy', 'x-content-type-options', 'x-frame-options'];

/** `/api/organizations/membership/:organizationId` → `/api/organizations/membership/{organizationId}`. */
function documentPath(routeUrl: string): string {
  return routeUrl.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** JSON Pointer escaping of one path segment (RFC 6901). */
function pointerSegment(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}

/**
 * A checker for answers against `document` (the JSON of /api/docs/json). It returns the problems
 * found in one answer, none when it conforms.
 */
export function answerChecker(document: object): (answer: ObservedAnswer) => string[] {
  const parsed: ApiDocument = ApiDocument.parse(document);
  // OpenAPI's own keywords (paths, info, ...) are not JSON Schema: not strict, but every schema
  // keyword and format is checked.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema({ ...document, $id: DOCUMENT_ID });
  const validators = new Map<string, ValidateFunction>();
  const validatorAt = (pointer: string): ValidateFunction => {
    let validate = validators.get(pointer);
    if (!validate) {
      validate = ajv.compile({ $ref: `${DOCUMENT_ID}#${pointer}` });
      validators.set(pointer, validate);
    }
    return validate;
  };

  return (answer) => {
    const problems: string[] = [];
    const pathname = answer.url.split('?')[0] ?? '';
    const where = `${answer.method} ${pathname} → ${answer.status}`;
    const isApi = pathname.startsWith('/api/') && !pathname.startsWith('/api/docs');
    if (!isApi) return problems;
    const body = answer.body ?? '';
    const mediaType = answer.contentType?.split(';')[0]?.trim().toLowerCase();
    if (answer.status >= 400) {
      if (mediaType !== 'application/json') problems.push(`${where}: an error answer of type ${answer.contentType ?? 'none'}, not application/json`);
      else if (!ApiErrorBody.safeParse(safeJson(body)).success) problems.push(`${where}: an error body that is not { code, message }: ${body.slice(0, 200)}`);
      for (const header of SECURITY_HEADERS) {
        if (answer.headers[header] === undefined) problems.push(`${where}: an error answer without the ${header} header`);
      }
    }
    if (answer.routeUrl === undefined || answer.method === 'HEAD') return problems;
    const templatePath = documentPath(answer.routeUrl);
    const operation = parsed.paths[templatePath]?.[answer.method.toLowerCase()];
    if (!operation) return problems;
    const response = operation.responses[String(answer.status)] ?? operation.responses.default;
    if (!response) {
      problems.push(`${where}: status ${answer.status} is not in the document for ${operation.operationId ?? templatePath}`);
      return problems;
    }
    if (!response.content) return problems;
    if (mediaType === undefined || !(mediaType in response.content)) {
      problems.push(`${where}: content type ${answer.contentType ?? 'none'} is not documented (${Object.keys(response.content).join(', ')})`);
      return problems;
    }
    const statusKey = String(answer.status) in operation.responses ? String(answer.status) : 'default';
    const pointer = ['paths', templatePath, answer.method.toLowerCase(), 'responses', statusKey, 'content', mediaType, 'schema']
      .map(pointerSegment)
      .join('/');
    if (answer.body === undefined) return problems;
    const validate = validatorAt(`/${pointer}`);
    // NDJSON: each line is checked as the schema's value (the schema is a line's).
    if (mediaType === 'application/x-ndjson') {
      for (const line of body.split('\n').filter((text) => text.trim() !== '')) {
        if (!validate(safeJson(line))) problems.push(`${where}: a line does not match the document: ${ajv.errorsText(validate.errors)}; line ${line.slice(0, 200)}`);
      }
      return problems;
    }
    // A JSON answer is checked as its value; a text one (text/csv) as the text itself.
    if (!validate(mediaType.includes('json') ? safeJson(body) : body)) {
      problems.push(`${where}: body does not match the document: ${ajv.errorsText(validate.errors)}; body ${body.slice(0, 200)}`);
    }
    return problems;
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Installs an onSend hook on `app` (before it is ready) that checks every answer against the app's
 * own OpenAPI document: a problem fails the running test (a soft assertion, so the test also shows
 * what it was doing); outside a test (a beforeAll), it is kept and `assertNoLateProblems` fails.
 */
export function checkAnswersAgainstDocument(app: FastifyInstance): { assertNoLateProblems(): void } {
  let check: ((answer: ObservedAnswer) => string[]) | undefined;
  const late: string[] = [];
  app.addHook('onSend', async (request, reply, payload) => {
    const problems = checkSafely(() => {
      check ??= answerChecker(app.swagger());
      return check({
        method: request.method,
        routeUrl: request.routeOptions.url,
        url: request.url,
        status: reply.statusCode,
        contentType: headerText(reply.getHeader('content-type')),
        // A file or a stream: its status and content type are checked, not its bytes.
        body: typeof payload === 'string' ? payload : undefined,
        headers: reply.getHeaders(),
      });
    });
    if (problems.length === 0) return payload;
    try {
      expect.soft(problems, 'answers that do not conform to the OpenAPI document').toEqual([]);
    } catch {
      late.push(...problems);
    }
    return payload;
  });
  return {
    assertNoLateProblems: () => {
      expect(late, 'answers outside a test that do not conform to the OpenAPI document').toEqual([]);
    },
  };
}

/** The checker's problems; a checker that throws is a problem too (never a failed answer). */
function checkSafely(run: () => string[]): string[] {
  try {
    return run();
  } catch (error) {
    return [`the OpenAPI check failed: ${String(error)}`];
  }
}

function headerText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
  return undefined;
}
