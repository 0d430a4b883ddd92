/**
 * The one place where errors become HTTP: `application/problem+json` (RFC 9457) with a stable `code`.
 * Unknown errors are logged and answered with a generic 500 that leaks nothing.
 */
import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, type AppErrorKind } from './app-error';
import { ClientLeft } from './client-left';
import { IDEMPOTENCY_KEY_IN_PROGRESS, IN_PROGRESS_RETRY_AFTER_SECONDS } from './idempotency-key';
import { isStoreUnavailable } from '../event-store/store-unavailable';

const STATUS: Record<AppErrorKind, number> = {
  validation: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unprocessable: 422,
  unavailable: 503,
};

/** Fastify's own rejections (body parsing, size, content type) by status. */
const FRAMEWORK_CODES: Record<number, string> = {
  400: 'REQUEST.MALFORMED',
  404: 'ROUTE.NOT_FOUND',
  405: 'ROUTE.METHOD_NOT_ALLOWED',
  413: 'REQUEST.TOO_LARGE',
  415: 'REQUEST.UNSUPPORTED_MEDIA_TYPE',
};

/**
 * How long a caller should wait before it asks again when the database or the event store cannot be
 * reached: about what a restart of PostgreSQL takes, and long enough that every client retrying at once
 * does not add to the trouble.
 */
export const STORE_UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/**
 * The api takes JSON bodies only: a 415 says so in the same words whether Fastify refused the media type (one it
 * has no parser for: "Unsupported Media Type") or the edge did (a type Nest parses, such as a form; http-edge.ts).
 */
export const NOT_JSON_TITLE = 'The body must be JSON (Content-Type: application/json)';

const FRAMEWORK_TITLES: Record<number, string> = { 415: NOT_JSON_TITLE };

export interface Problem {
  type: string;
  title: string;
  status: number;
  code: string;
  detail?: string;
  instance?: string;
  [extension: string]: unknown;
}

@Catch()
export class ProblemJsonFilter implements ExceptionFilter {
  private readonly logger = new Logger('ProblemJson');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const problem = this.toProblem(exception);
    // The path, not the query string: an answer does not echo back whatever a caller put in it.
    problem.instance = request.url.split('?')[0];
    // Nest's own 404 names the whole URL ("Cannot GET /path?query"): the title names the path only.
    if (problem.code === 'ROUTE.NOT_FOUND') problem.title = `Cannot ${request.method} ${problem.instance}`;
    // A 503, or a 409 for a key still in progress, that knows when to ask again says so the HTTP way too
    // (RFC 9110 §10.2.3), in seconds.
    const retryAfter = problem.status === 503 || problem.status === 409 ? problem.retryAfterSeconds : undefined;
    if (typeof retryAfter === 'number' && retryAfter > 0) void reply.header('retry-after', String(Math.ceil(retryAfter)));
    void reply.status(problem.status).header('content-type', 'application/problem+json').send(problem);
  }

  toProblem(exception: unknown): Problem {
    // 499, as proxies log a request whose client closed the connection; nobody receives this answer.
    if (exception instanceof ClientLeft) return { type: 'about:blank', title: exception.message, status: 499, code: 'REQUEST.CLIENT_LEFT' };
    if (exception instanceof AppError) {
      const status = STATUS[exception.kind];
      // Every route's "key still in progress" says when to ask again, whichever feature raised it.
      const inProgress = exception.code === IDEMPOTENCY_KEY_IN_PROGRESS ? { retryAfterSeconds: IN_PROGRESS_RETRY_AFTER_SECONDS } : {};
      // Details extend the problem but never override its standard members.
      return {
        ...inProgress,
        ...exception.details,
        type: `https://idem.dev/problems/${exception.code}`,
        title: exception.message,
        status,
        code: exception.code,
      };
    }
    const status = exception instanceof HttpException ? exception.getStatus() : (exception as { statusCode?: number })?.statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      const code = FRAMEWORK_CODES[status] ?? `HTTP.${status}`;
      const message = FRAMEWORK_TITLES[status] ?? (exception instanceof Error ? exception.message : 'Bad request');
      return { type: `https://idem.dev/problems/${code}`, title: message, status, code };
    }
    if (isStoreUnavailable(exception)) {
      // Expected while the database is down; the stack says nothing the message does not.
      this.logger.warn(`answered 503: the store cannot be reached (${exception instanceof Error ? exception.message : String(exception)})`);
      return {
        type: 'https://idem.dev/problems/STORE.UNAVAILABLE',
        title: 'The database or event store cannot be reached right now; send the same request again later',
        status: 503,
        code: 'STORE.UNAVAILABLE',
        retryAfterSeconds: STORE_UNAVAILABLE_RETRY_AFTER_SECONDS,
      };
    }
    this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
    return { type: 'https://idem.dev/problems/INTERNAL', title: 'Internal error', status: 500, code: 'INTERNAL' };
  }
}
