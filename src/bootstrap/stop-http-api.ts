/**
 * Stopping the api without resetting requests on keep-alive connections.
 *
 * Fastify's close() (fastify.js, its onClose handler) ends in Node's `server.close()`, which since
 * Node 19 first calls `server.closeIdleConnections()` (`httpServerPreClose` in lib/_http_server.js;
 * Node's http docs, server.closeIdleConnections(): "Starting with Node.js 19.0.0, there's no need for
 * calling this method in conjunction with server.close to reap keep-alive connections"): each
 * keep-alive connection between two requests is destroyed at once. A client writing its next request
 * on one at that moment got ECONNRESET with no answer, and clients do not retry a POST. Fastify's
 * `forceCloseConnections` (docs/Reference/Server.md; default 'idle' where Node has
 * closeIdleConnections) only decides what Fastify adds to that, and `return503OnClosing` only what a
 * request that still gets through is answered (Fastify's own test close-pipelining.test.js: "Since
 * Node v20, we will always invoke server.closeIdleConnections()"); no setting stops Node doing it.
 *
 * So the api stops in three steps before close() runs:
 * 1. every new request is answered 503 SERVICE.STOPPING and every answer, the requests in flight
 *    included, says `Connection: close` (http-edge.ts; with pipelined requests, the last one's): the
 *    client closes the connection after it;
 * 2. the listener stops accepting (net.Server's own close, which is what http's close does after
 *    closing the idle connections), so a new connection is refused before anything is sent;
 * 3. up to {@link STOP_TIMING}.drainMs for the open connections to be closed that way; busy clients
 *    close theirs within one request, and the wait ends as soon as none is left.
 * Then close() runs as before: it closes the connections that stayed idle the whole window and waits
 * for requests in flight. At {@link STOP_TIMING}.forceAfterMs after the signal, whatever connection
 * remains is destroyed (`server.closeAllConnections()`), so the api's part of a stop is bounded.
 *
 * With HOST naming two addresses (localhost), Fastify listens on a second server it keeps to itself
 * and closes it when the first has closed: that one's idle connections are closed without the window.
 */
import { Server as NetServer } from 'node:net';
import type { Server } from 'node:http';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { refuseNewRequests } from './http-edge';

export interface StopTiming {
  /** How long open connections get to close themselves before the idle ones are closed. */
  drainMs: number;
  /** When every connection still open is destroyed, in-flight requests included. */
  forceAfterMs: number;
}

/**
 * 12 s: the longest request the api serves on purpose is a charge with `?waitMs=10000`, which then
 * answers within that bound; the force is for a request stuck beyond it.
 */
export const STOP_TIMING: StopTiming = { drainMs: 1_000, forceAfterMs: 12_000 };

/** Drains and closes the api (the entry point's first closer): see the file's comment. */
export async function stopHttpApi(app: NestFastifyApplication, timing: StopTiming = STOP_TIMING): Promise<void> {
  const instance = app.getHttpAdapter().getInstance();
  const server = instance.server;
  const force = setTimeout(() => server.closeAllConnections(), timing.forceAfterMs);
  try {
    refuseNewRequests(instance);
    await stopAccepting(server, timing.drainMs);
    await app.close();
  } finally {
    clearTimeout(force);
  }
}

/** Closes the listener only (not the idle connections) and waits until no connection is left, or `drainMs`. */
function stopAccepting(server: Server, drainMs: number): Promise<void> {
  if (!server.listening) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, drainMs);
    // net.Server's close calls back once the last connection has ended ('close'). http.Server's own
    // close, which Fastify calls later, then finds the listener closed and calls back as that
    // connection count allows (ERR_SERVER_NOT_RUNNING, which Fastify takes as closed).
    NetServer.prototype.close.call(server, () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
