/**
 * The admin screen in a real headless browser (Debian's chromium driven by playwright-core; nothing
 * downloads a browser): support logs in with a token, finds a paid order by its customer, reads its
 * timeline, and resolves a case in review — with the page's Content-Security-Policy in force, so an
 * inline script or a blocked request would show up as a console error and fail the test.
 */
import { randomUUID } from 'node:crypto';
import { chromium, type Browser, type Page } from 'playwright-core';
import { browserRequired, CHROMIUM, ensureChromium } from '../../../test/harness/chromium';
import { startService } from '../../../test/harness/service-process';
import { orderInReview, paidOrder, startSupportCases, type SupportCases } from '../../../test/harness/support-cases';
import { createTestDatabase } from '../../../test/harness/test-database';
import { auth } from '../../../test/harness/test-app';
import { waitUntil } from '../../../test/harness/wait-until';
import { ADMIN_CONTENT_SECURITY_POLICY } from './admin-screen.controller';

// Installed here if missing and possible; skipped with a warning only off CI (test/harness/chromium.ts).
const chromiumPath = ensureChromium();
const describeInBrowser = chromiumPath || browserRequired ? describe : describe.skip;

let cases: SupportCases;
beforeAll(async () => {
  cases = await startSupportCases('admin_screen');
});
afterAll(() => cases.close());

describe('GET /admin', () => {
  it.each(['/admin', '/admin/admin.js', '/admin/admin.css'])(
    'serves %s without a token, under the Content-Security-Policy',
    async (url) => {
      const answer = await cases.harness.app.inject({ url });
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-security-policy']).toBe(ADMIN_CONTENT_SECURITY_POLICY);
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
    },
  );

  it('has no inline script for the policy to allow', async () => {
    const html = (await cases.harness.app.inject({ url: '/admin' })).body;
    expect(html.match(/<script[^>]*>/g)).toEqual(['<script src="/admin/admin.js" defer>']);
    expect(ADMIN_CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(ADMIN_CONTENT_SECURITY_POLICY).not.toContain('unsafe-inline');
  });
});

describe('GET /admin from the compiled service (dist/, as npm start runs it)', () => {
  it('finds the files beside the source and serves them', async () => {
    const service = await startService({ DATABASE_URL: await createTestDatabase('admin_screen_dist') });
    try {
      for (const file of ['', '/admin.js', '/admin.css']) {
        const answer = await fetch(`${service.apiUrl}/admin${file}`);
        expect({ file, status: answer.status, policy: answer.headers.get('content-security-policy') }).toEqual({
          file,
          status: 200,
          policy: ADMIN_CONTENT_SECURITY_POLICY,
        });
      }
    } finally {
      await service.stop();
    }
  });
});

describeInBrowser('the admin screen, in chromium', () => {
  const customerId = `cus-${randomUUID()}`;
  const requestId = `req-${randomUUID()}`;
  let paid: string;
  let inReview: string;
  let browser: Browser;
  let page: Page;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    if (!chromiumPath) throw new Error(`No chromium at ${CHROMIUM}: install it (apt-get install -y chromium) or set IDEM_CHROMIUM`);
    paid = await paidOrder(cases, { customerId, requestId });
    inReview = await orderInReview(cases, { customerId: `cus-${randomUUID()}` });
    // The screen reads support_jobs: wait until both cases are there before a person would look.
    await waitUntil(
      async () => (await cases.harness.app.inject({ url: '/v1/support/reviews', headers: auth('support') })).json().results,
      (jobs: Array<{ orderId?: string }>) => jobs.some((job) => job.orderId === inReview),
      15_000,
    );
    browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: ['--no-sandbox'] });
    page = await browser.newPage();
    page.on('console', (message) => message.type() === 'error' && consoleErrors.push(message.text()));
    page.on('pageerror', (error) => consoleErrors.push(error.message));
  });
  afterAll(() => browser?.close());

  const text = (selector: string) => page.locator(selector).innerText();

  it('refuses a token that is not a support token, then logs in with dev-support', async () => {
    await page.goto(`${cases.url}/admin`);
    await page.fill('#token', 'dev-storefront');
    await page.click('#login-form button');
    await page.locator('#login-error', { hasText: 'not a support token' }).waitFor();
    expect(await page.locator('#workspace').isHidden()).toBe(true);

    await page.fill('#token', 'dev-support');
    await page.click('#login-form button');
    await page.locator('#workspace').waitFor();
    expect(await page.evaluate('sessionStorage.getItem("idem.supportToken")')).toBe('dev-support');
    await page.locator('#duplicates', { hasText: 'repeated requests answered from the record' }).waitFor();
    expect(await text('#lag')).toMatch(/support_jobs/);
  });

  it('finds the paid order by its customer and shows the job and its full timeline', async () => {
    await page.fill('#q', customerId);
    await page.click('#search-form button');
    const result = page.locator('#results tbody tr', { hasText: paid });
    await result.waitFor();
    expect(await page.locator('#results tbody tr').count()).toBe(1);
    await result.click();
    await page.locator('#timeline li', { hasText: 'ChargeSucceeded' }).waitFor();

    const order = (await cases.harness.app.inject({ url: `/v1/orders/${paid}`, headers: auth('support') })).json();
    const fields = await page.locator('#detail-fields').innerText();
    expect(await text('#detail-title')).toBe(`Order ${paid}`);
    for (const value of ['done', `charge-order:${paid}`, requestId, order.providerChargeId, customerId]) expect(fields).toContain(value);
    const timeline = await page.locator('#timeline li strong').allInnerTexts();
    expect(timeline).toEqual(['ChargeRequested', 'ChargeAttemptStarted', 'ChargeSucceeded']);
  });

  it('resolves the case in review with a note, which the timeline then shows', async () => {
    const review = page.locator('#review-list tbody tr', { hasText: inReview });
    await review.waitFor();
    expect(await review.innerText()).toContain('succeeded payments');
    await review.locator('input').fill('refunded the duplicate in the dashboard');
    await review.locator('select').selectOption('paid');
    await review.locator('button', { hasText: 'Resolve' }).click();
    await page.locator('#review-message', { hasText: `Order ${inReview} resolved as paid.` }).waitFor();
    expect(await review.innerText()).toContain('resolved as paid');

    await page.fill('#q', inReview);
    await page.click('#search-form button');
    await page.locator('#results tbody tr', { hasText: inReview }).click();
    const resolved = page.locator('#timeline li', { hasText: 'ChargeReviewResolved' });
    await resolved.waitFor();
    expect(await resolved.locator('pre').textContent()).toContain('refunded the duplicate in the dashboard');
  });

  it('ran without a console error or a Content-Security-Policy violation', () => {
    // The refused login's 403 is the one expected error the browser logs (a failed resource load).
    expect(consoleErrors.filter((message) => !message.includes('403'))).toEqual([]);
  });
});
