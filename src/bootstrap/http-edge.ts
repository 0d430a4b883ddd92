/**
 * What the api does with a request before Nest sees it, and with the requests Nest never sees:
 *
 * - every answer carries `X-Request-Id` (DESIGN.md §6): the caller's, when it is printable ASCII of at
 *   most 128 characters, else one made here; it is also `request.id`, the correlation id of the events
 *   the request causes (src/auth/caller.decorator.ts), so the answer names what it wrote;
 * - the errors Fastify raises before routing (a URL that is not valid percent-encoding, a path
 *   parameter over the router's length limit) and the ones Node's HTTP parser raises before Fastify
 *   (an unknown method, headers too large) are problem+json like every other error, not Fastify's
 *   plain JSON, and never echo the request back;
 * - a JSON body nested deeper than {@link MAX_JSON_DEPTH} is refused with 400: JSON.parse takes any
 *   depth, but the validators and serialisers after it recurse and a few thousand levels overflow the
 *   stack (a 500 for bad input);
 * - a body that is not JSON (text/plain, a form) is refused with 415 instead of being validated as an
 *   empty object, which answered "every field is missing";
 * - a JSON body that is not valid UTF-8 (RFC 8259 §8.1) is refused with 400 REQUEST.MALFORMED, as JSON
 *   that does not parse is: decoded as Node decodes, its bad bytes became U+FFFD and the record was
 *   stored changed (two different bodies as the same one);
 * - a JSON body with a `__proto__` or `constructor.prototype` key is refused with 400
 *   REQUEST.FORBIDDEN_KEY: Fastify's parser refuses it (prototype poisoning) with the same error as
 *   broken JSON, which told the caller its valid JSON was not JSON;
 * - a JSON body that names one key twice in an object is refused with 400 REQUEST.DUPLICATE_KEY,
 *   naming the key and its path: JSON.parse kept the last value silently (duplicate-json-key.ts);
 * - a request that arrives once the api is stopping (on a keep-alive connection, after the signal) is
 *   answered 503 SERVICE.STOPPING as problem+json with its request id: Fastify's own 503 for it
 *   (`return503OnClosing`) is plain JSON written before any hook runs; every answer given while
 *   stopping (that 503, and the requests in flight) says `Connection: close`, so the client closes the
 *   connection itself instead of sending on one the api is about to close (stop-http-api.ts);
 * - a body sent with a Content-Encoding other than identity (gzip, br, …) is refused with 415
 *   REQUEST.UNSUPPORTED_CONTENT_ENCODING (RFC 9110 §8.4.1), as the api decodes none: a gzip body was
 *   answered "not valid UTF-8", and an uncompressed body labelled gzip was taken as it was;
 * - a method a known path does not take (`DELETE /v1/orders/481`) is answered 405
 *   ROUTE.METHOD_NOT_ALLOWED with the `Allow` header RFC 9110 §15.5.6 requires, not the 404 Fastify
 *   gives for any unmatched request, which told the caller the resource did not exist.
 */
import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBodyParser, FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { AppError } from '../errors/app-error';
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../errors/json-depth';
import { NOT_JSON_TITLE } from '../errors/problem-json.filter';
import { decodeUtf8 } from '../errors/utf8-text';
import { firstDuplicateKey, type DuplicateKey } from '../errors/duplicate-json-key';

const REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

function requestIdOf(request: IncomingMessage): string {
  const header = request.headers['x-request-id'];
  return typeof header === 'string' && REQUEST_ID.test(header) ? header : randomUUID();
}

function problem(status: number, code: string, title: string): Record<string, unknown> {
  return { type: `https://idem.dev/problems/${code}`, title, status, code };
}

/** Fastify's own errors before a route is found: the URL cannot be decoded, or a path parameter is too long. */
function frameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const [status, code, title] =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? [414, 'REQUEST.URI_TOO_LONG', 'A path segment of the URL is too long']
      : [400, 'REQUEST.MALFORMED_URL', 'The URL is not valid percent-encoding'];
  // Answered before any hook runs, so the request id is set here too (the URL is not echoed back).
  void reply
    .status(status)
    .header('content-type', 'application/problem+json')
    .header('x-request-id', request.id)
    .send(problem(status, code, title));
}

/** Node's HTTP parser refused the request (unknown method, headers too large, …): answer and close. */
function clientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, code] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'REQUEST.HEADERS_TOO_LARGE']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'REQUEST.TIMEOUT']
        : [400, 'REQUEST.MALFORMED'];
  const body = JSON.stringify(problem(status, code, STATUS_CODES[status] ?? 'Bad Request'));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/problem+json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${randomUUID()}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Options of the api's Fastify instance (FastifyAdapter's constructor). */
export const httpEdgeOptions = {
  genReqId: requestIdOf,
  frameworkErrors: frameworkError,
  clientErrorHandler: clientError,
  // Answered by installHttpEdge's hook instead, as problem+json.
  return503OnClosing: false,
} satisfies FastifyServerOptions;

const JSON_MEDIA_TYPE = /^application\/json\s*(;|$)/i;

/** A 415 the problem filter answers as REQUEST.UNSUPPORTED_MEDIA_TYPE, like Fastify's own for an unknown type. */
const notJson = () => Object.assign(new Error(NOT_JSON_TITLE), { statusCode: 415 });

const jsonTooDeep = () => new AppError('validation', 'REQUEST.TOO_DEEP', `The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`);

const forbiddenKey = () =>
  new AppError(
    'validation',
    'REQUEST.FORBIDDEN_KEY',
    'The JSON body has a __proto__ or constructor.prototype key, which is refused (prototype poisoning)',
  );

const notUtf8 = () => new AppError('validation', 'REQUEST.MALFORMED', 'The body is not valid UTF-8, which JSON must be (RFC 8259 §8.1)');

/** A key of any length is named, but only so much of it is echoed. */
const MAX_KEY_SHOWN = 100;

function duplicateKey({ key, path }: DuplicateKey): AppError {
  const shown = (text: string) => (text.length > MAX_KEY_SHOWN ? `${text.slice(0, MAX_KEY_SHOWN)}…` : text);
  return new AppError(
    'validation',
    'REQUEST.DUPLICATE_KEY',
    `The JSON body names the key ${JSON.stringify(shown(key))} twice in one object; which value is meant is ambiguous`,
    { errors: [{ field: shown(path), message: 'this key appears more than once in its object' }] },
  );
}

/** Whether a body Fastify's parser refused is JSON all the same: then the refusal was for a forbidden key. */
function isJson(body: string): boolean {
  try {
    JSON.parse(body);
    return true;
  } catch {
    return false;
  }
}

/**
 * The api's JSON parser (`app.useBodyParser('application/json', …)`): Fastify's own, refusing the
 * prototype-poisoning keys as it does, with that refusal named for what it is, and refusing a key
 * repeated within an object. Every JSON route's body comes through here.
 */
export function jsonBodyParser(instance: FastifyInstance): FastifyBodyParser<Buffer> {
  const secureParse = instance.getDefaultJsonParser('error', 'error') as (
    request: FastifyRequest,
    body: string | Buffer,
    done: (error: Error | null, value?: unknown) => void,
  ) => void;
  return (request, body, done) => {
    const text = typeof body === 'string' ? body : decodeUtf8(body);
    if (text === undefined) return done(notUtf8());
    secureParse(request, text, (error, value) => {
      if (error) return done(isJson(text) ? forbiddenKey() : error);
      const duplicate = firstDuplicateKey(text);
      done(duplicate ? duplicateKey(duplicate) : null, duplicate ? undefined : value);
    });
  };
}

/** The Content-Encoding of the request's body when it names a coding other than identity (which the api cannot decode). */
function contentCodingOf(request: FastifyRequest): string | undefined {
  const { 'content-length': length, 'transfer-encoding': chunked } = request.headers;
  // A request without a body (a GET) has nothing the header could describe.
  if ((length === undefined || length === '0') && chunked === undefined) return undefined;
  const header = request.headers['content-encoding'];
  const coding = (Array.isArray(header) ? header.join(',') : (header ?? '')).trim().toLowerCase();
  return coding === '' || coding === 'identity' ? undefined : coding;
}

const MAX_CODING_SHOWN = 40;
const unsupportedCodingTitle = (coding: string) =>
  `The body must be sent without Content-Encoding; "${coding.length > MAX_CODING_SHOWN ? `${coding.slice(0, MAX_CODING_SHOWN)}…` : coding}" is not accepted`;

/** The methods a route may take; a path that takes none of them is not a route at all (404). */
const ROUTE_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** The methods some route takes at this URL (its path matched as the router matches it, query ignored). */
function allowedMethods(instance: FastifyInstance, url: string): string[] {
  return ROUTE_METHODS.filter((method) => instance.findRoute({ method, url }) !== null);
}

/** The api instances that are stopping: each new request is answered 503 SERVICE.STOPPING. */
const stoppingApis = new WeakSet<FastifyInstance>();

/**
 * The last request that arrived on each connection. Node hands a pipelined request to the api while
 * the one before it is still being answered; only the last one's answer may close the connection, or
 * Node would drop the answers queued behind it (RFC 9112 §9.6).
 */
const lastRequestOn = new WeakMap<Socket, FastifyRequest>();

/**
 * From now on, `instance` answers each new request 503 SERVICE.STOPPING and every answer with
 * `Connection: close`. The stop calls it at the signal (stop-http-api.ts); Fastify's close() at the latest.
 */
export function refuseNewRequests(instance: FastifyInstance): void {
  stoppingApis.add(instance);
}

/** The hooks and parsers above, on the api's instance before Nest registers its routes. */
export function installHttpEdge(instance: FastifyInstance): void {
  // Runs as close() begins, before the server stops accepting: requests in flight still finish.
  instance.addHook('preClose', (done) => {
    refuseNewRequests(instance);
    done();
  });
  instance.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    lastRequestOn.set(request.raw.socket, request);
    if (!stoppingApis.has(instance)) return request.is404 ? methodNotAllowed(instance, request, reply, done) : done();
    // The caller closes this connection (onSend below) and retries elsewhere or after the restart.
    void reply
      .status(503)
      .header('content-type', 'application/problem+json')
      .header('retry-after', '1')
      .send(problem(503, 'SERVICE.STOPPING', 'The service is stopping; send the request again'));
  });
  // Node ends the connection after an answer that says `Connection: close` (instead of keeping it idle,
  // where closing it later could cross a request the client is writing on it).
  instance.addHook('onSend', (request, reply, payload, done) => {
    if (stoppingApis.has(instance) && lastRequestOn.get(request.raw.socket) === request) void reply.header('connection', 'close');
    done(null, payload);
  });
  // After the token checks (onRequest), before the body is read.
  instance.addHook('preParsing', (request, reply, payload, done) => {
    const coding = contentCodingOf(request);
    if (coding === undefined) return done(null, payload);
    void reply
      .status(415)
      .header('content-type', 'application/problem+json')
      .send({
        ...problem(415, 'REQUEST.UNSUPPORTED_CONTENT_ENCODING', unsupportedCodingTitle(coding)),
        instance: request.url.split('?')[0],
      });
  });
  instance.addHook('preValidation', (request, _reply, done) => {
    if (request.body === undefined) return done();
    // Nest registers a form parser of its own (rawBody), so the media type is checked here, after parsing.
    if (!JSON_MEDIA_TYPE.test(request.headers['content-type'] ?? '')) return done(notJson());
    done(nestedDeeperThan(request.body, MAX_JSON_DEPTH) ? jsonTooDeep() : undefined);
  });
}

/** A request no route matched: 405 with `Allow` when its path takes other methods, else on to the 404. */
function methodNotAllowed(instance: FastifyInstance, request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  const allow = allowedMethods(instance, request.url);
  if (allow.length === 0) return done();
  const path = request.url.split('?')[0];
  void reply
    .status(405)
    .header('content-type', 'application/problem+json')
    .header('allow', allow.join(', '))
    .send({ ...problem(405, 'ROUTE.METHOD_NOT_ALLOWED', `${path} takes ${allow.join(', ')}, not ${request.method}`), instance: path });
}
