/**
 * GET /admin — the support and audit screens (DESIGN.md §6, §8): one static page and its script and
 * style. The page itself is public; everything it shows comes from the support or the audit routes,
 * called with the bearer token pasted at login (kept in sessionStorage, so it ends with the tab); the
 * routes a token may read decide which screen it gets.
 *
 * A browser user gets the screen however the address was typed or linked: `/admin/` is sent on to
 * `/admin`, and a query string a link added (`?utm_source=…`) is ignored, as by any static page. The
 * api's own routes keep refusing parameters they do not read (KnownQueryParametersGuard).
 */
import { Controller, Get, type OnModuleInit, Query, Res } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { AdminAssets, type AdminAssetName } from './admin-assets';
import { Public } from '../../../src/auth/roles';

/** Only our own script, style and API: no inline script, so injected markup cannot run code. */
export const ADMIN_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

@Public('static files of a page that asks for a token itself; every call it makes needs one')
@Controller('admin')
export class AdminScreenController implements OnModuleInit {
  private readonly assets = new AdminAssets();

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  /**
   * `/admin/`: Nest strips a route's trailing slash, so it is a route of Fastify's own, outside the
   * access rules like every public file here. It redirects rather than serves: the page has one address.
   */
  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.get('/admin/', (request, reply) => {
      const query = request.url.indexOf('?');
      return reply.redirect(query === -1 ? '/admin' : `/admin${request.url.slice(query)}`, 301);
    });
  }

  // `@Query()` takes the whole query, which tells the guard that this handler reads it (and ignores it).
  @Get()
  page(@Query() _linkParameters: unknown, @Res() reply: FastifyReply) {
    return this.send(reply, 'admin.html');
  }

  @Get('admin.js')
  script(@Query() _cacheBuster: unknown, @Res() reply: FastifyReply) {
    return this.send(reply, 'admin.js');
  }

  @Get('admin.css')
  style(@Query() _cacheBuster: unknown, @Res() reply: FastifyReply) {
    return this.send(reply, 'admin.css');
  }

  private send(reply: FastifyReply, name: AdminAssetName) {
    const { contentType, body } = this.assets.get(name);
    return reply
      .header('content-type', contentType)
      .header('content-security-policy', ADMIN_CONTENT_SECURITY_POLICY)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .header('cache-control', 'no-store')
      .send(body);
  }
}
