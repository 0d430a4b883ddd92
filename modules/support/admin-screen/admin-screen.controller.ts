/**
 * GET /admin — the support and audit screens (DESIGN.md §6, §8): one static page and its script and
 * style. The page itself is public; everything it shows comes from the support or the audit routes,
 * called with the bearer token pasted at login (kept in sessionStorage, so it ends with the tab); the
 * routes a token may read decide which screen it gets.
 */
import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
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
export class AdminScreenController {
  private readonly assets = new AdminAssets();

  @Get()
  page(@Res() reply: FastifyReply) {
    return this.send(reply, 'admin.html');
  }

  @Get('admin.js')
  script(@Res() reply: FastifyReply) {
    return this.send(reply, 'admin.js');
  }

  @Get('admin.css')
  style(@Res() reply: FastifyReply) {
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
