// The support and audit screens: plain DOM, no framework, no build step. Every value from the service is
// set as text (never as markup): notes, errors, ids and event data come from customers and providers.
'use strict';

// The key's name predates the audit screen; the tab keeps the token only, whatever its role.
const TOKEN_KEY = 'idem.supportToken';
const SESSION_ENDED = 'The session ended: the service no longer accepts this token. Log in again.';
const NEITHER_ROLE = 'That token is not a support token nor an auditor token.';
const $ = (selector) => document.querySelector(selector);

/** A non-2xx answer, carrying the service's problem+json (title, code, per-field errors). */
class ProblemError extends Error {
  constructor(response, problem) {
    super(describeProblem(response, problem));
    this.status = response.status;
    this.problem = problem;
  }
}

/**
 * "The request is invalid: note must explain the decision … (REQUEST.INVALID)". An answer without a
 * problem (a proxy's error page) is named by its status, and said to give no reason.
 */
function describeProblem({ status, statusText }, problem) {
  const what = problem.detail || problem.title;
  if (!what) return `The service answered HTTP ${status}${statusText ? ` ${statusText}` : ''}, without saying why.`;
  const fields = (problem.errors || []).map((e) => e.message).join('; ');
  const when = askAgainIn(problem.retryAfterSeconds);
  return [fields ? `${what}: ${fields}` : what, problem.code && `(${problem.code})`, when].filter(Boolean).join(' ');
}

/** fetch's own rejection ("Failed to fetch") says only that no answer came. */
const NO_ANSWER = 'The service could not be reached (no answer): check the connection and try again.';

/**
 * A refusal that a later try can answer says when (the provider cannot answer for a key until no request
 * under it can still be executing there: minutes, not "later").
 */
function askAgainIn(seconds) {
  if (!Number.isFinite(seconds) || seconds <= 0) return '';
  return `— ask again in ${seconds < 90 ? `${Math.ceil(seconds)} s` : `about ${Math.ceil(seconds / 60)} min`}`;
}

/** Counts the sessions ended in this tab, so an answer that arrives after its session ended is dropped. */
let sessionsEnded = 0;

/** A promise that never settles: what waited for it belongs to a session that is over, and shows nothing. */
const dropped = () => new Promise(() => {});

/** Calls the API with the session's token, or with `token` (a login being tried), and `requestId` as its X-Request-Id. */
async function api(path, { method = 'GET', body, token, requestId } = {}) {
  const session = sessionsEnded;
  const headers = { authorization: `Bearer ${token ?? sessionStorage.getItem(TOKEN_KEY)}` };
  if (requestId) headers['x-request-id'] = requestId;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }).catch(() => {
    throw new Error(NO_ANSWER);
  });
  const answer = await response.json().catch(() => ({}));
  if (session !== sessionsEnded) return dropped();
  if (response.status === 401 && token === undefined) return endSession(SESSION_ENDED);
  if (!response.ok) throw new ProblemError(response, answer);
  return answer;
}

function element(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (className) node.className = className;
  return node;
}

function row(cells) {
  const tr = element('tr');
  for (const cell of cells) {
    const td = element('td');
    if (cell instanceof Node) td.append(cell);
    else td.textContent = cell === null || cell === undefined ? '—' : String(cell);
    tr.append(td);
  }
  return tr;
}

/** Fills a <dl> with [name, value] pairs; a value may be a node (e.g. a status badge). */
function showFields(list, fields) {
  list.replaceChildren(
    ...fields.flatMap(([name, value]) => {
      const dd = element('dd', value instanceof Node ? undefined : (value ?? '—'));
      if (value instanceof Node) dd.append(value);
      return [element('dt', name), dd];
    }),
  );
}

/** An event's data and metadata, folded away: shown as JSON text, whatever markup they hold. */
function eventDetails(event) {
  const details = element('details');
  details.append(
    element('summary', 'data and metadata'),
    element('pre', JSON.stringify({ data: event.data, metadata: event.metadata }, null, 2)),
  );
  return details;
}

const plural = (count, noun) => `${count} ${noun}${count === 1 ? '' : 's'}`;
/** "50 of 110 jobs" while pages remain to be loaded, "110 jobs" once all are shown. */
const shownOf = (shown, total, noun) => (shown < total ? `${shown} of ${plural(total, noun)}` : plural(shown, noun));
/** A list's page: the first without a cursor, else the one after the page whose `next` it is. */
const pageOf = (path, cursor) => (cursor ? `${path}${path.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor)}` : path);
const time = (iso) => (iso ? `${iso.replace('T', ' ').slice(0, 19)} UTC` : '—');
const status = (value) => element('span', value, `status-${value}`);

// ---- login, roles and the end of a session -------------------------------------------------------------

/** The screen each role sees; the role itself is never stored, so a reload asks again. */
const SCREENS = ['support', 'auditor'];

/** The token's role, or undefined when the service knows the token but gives it neither screen. */
async function roleOf(token) {
  const { role } = await api('/v1/auth/caller', { token });
  return SCREENS.includes(role) ? role : undefined;
}

async function logIn(event) {
  event.preventDefault();
  const token = $('#token').value.trim();
  $('#login-error').textContent = '';
  try {
    const role = await roleOf(token);
    if (!role) throw new Error(NEITHER_ROLE);
    sessionStorage.setItem(TOKEN_KEY, token);
    $('#token').value = '';
    await enterScreen(role);
  } catch (error) {
    $('#login-error').textContent = error.status === 401 ? 'That token is not known to this service.' : error.message;
  }
}

async function resumeSession() {
  try {
    await enterScreen(await roleOf(sessionStorage.getItem(TOKEN_KEY)));
  } catch (error) {
    endSession(error.status === 401 ? SESSION_ENDED : error.message);
  }
}

function logOut() {
  endSession('');
}

/**
 * Back to the login form, forgetting the token and everything shown with it (the next person at this
 * tab may hold another role). Answers `dropped()`: whatever waited for the answer that ended the
 * session has nothing left to show.
 */
function endSession(message) {
  sessionsEnded += 1;
  sessionStorage.removeItem(TOKEN_KEY);
  for (const selector of [
    '#workspace',
    '#audit',
    '#overview',
    '#logout',
    '#results',
    '#detail',
    '#history-list',
    '#search-more',
    '#reviews-more',
  ])
    $(selector).hidden = true;
  for (const selector of CLEARED_ON_LOG_OUT) $(selector).replaceChildren();
  for (const selector of ['#q', '#verify-stream']) $(selector).value = '';
  $('#duplicates').textContent = $('#lag').textContent = '…';
  historyNext = moreResults = moreReviews = detailJob = null;
  $('#history-next').disabled = true;
  $('#title').textContent = 'Idem admin';
  $('#login').hidden = false;
  $('#login-error').textContent = message;
  return dropped();
}

const CLEARED_ON_LOG_OUT = [
  '#search-message',
  '#detail-message',
  '#results tbody',
  '#detail-title',
  '#detail-fields',
  '#timeline-message',
  '#timeline',
  '#review-message',
  '#review-count',
  '#review-list tbody',
  '#verify-message',
  '#verify-report',
  '#history-message',
  '#history-list tbody',
];

async function enterScreen(role) {
  if (!role) return endSession(NEITHER_ROLE);
  $('#login').hidden = true;
  $('#logout').hidden = false;
  $('#title').textContent = role === 'support' ? 'Idem support' : 'Idem audit';
  if (role === 'auditor') {
    $('#audit').hidden = false;
    return;
  }
  $('#workspace').hidden = false;
  $('#overview').hidden = false;
  await Promise.all([loadOverview(), loadReviews()]);
}

// ---- header: duplicates absorbed and projection lag ---------------------------------------------------

/** Counts the reads of the header: one answered after a later one (a Refresh, an action's) is dropped, not shown as current. */
let overviewsAsked = 0;

async function loadOverview() {
  const asked = ++overviewsAsked;
  try {
    const { duplicatesAbsorbed, projections, projectionsError } = await api('/v1/support/overview');
    if (asked !== overviewsAsked) return;
    const { replayedAnswers, importRecords } = duplicatesAbsorbed;
    $('#duplicates').textContent =
      `${plural(replayedAnswers.count, 'repeated request')} answered from the record (since ${time(replayedAnswers.since)}) · ` +
      `${importRecords.duplicate} duplicate and ${importRecords.unchanged} unchanged contact records`;
    // The event store did not answer in time: the lag is unknown, not zero.
    if (!projections) {
      $('#lag').textContent = `unavailable: ${projectionsError}`;
      return;
    }
    const behind = projections.filter((p) => p.lagEvents > 0);
    $('#lag').textContent = behind.length
      ? behind
          .map((p) => `${p.name}: ${p.lagEventsAtLeast ? '≥' : ''}${plural(p.lagEvents, 'event')}, ${p.lagSeconds.toFixed(1)} s`)
          .join(' · ')
      : `caught up (${projections.map((p) => p.name).join(', ')})`;
  } catch (error) {
    if (asked === overviewsAsked) $('#duplicates').textContent = $('#lag').textContent = `unavailable: ${error.message}`;
  }
}

// ---- search → list → detail ----------------------------------------------------------------------------

/**
 * Counts the searches started, so the next page of an earlier search (a late click on More) does not
 * add its jobs under a newer one.
 */
let searchesStarted = 0;

/** Loads the next page of the search shown; null when every job it found is shown. */
let moreResults = null;

async function search(event) {
  event.preventDefault();
  searchesStarted += 1;
  $('#results tbody').replaceChildren();
  $('#results').hidden = true;
  await loadSearchPage($('#q').value.trim(), null);
}

async function loadSearchPage(q, cursor) {
  const searching = searchesStarted;
  const body = $('#results tbody');
  $('#search-more').hidden = true;
  try {
    const page = await api(pageOf(`/v1/support/search?q=${encodeURIComponent(q)}`, cursor));
    if (searching !== searchesStarted) return;
    body.append(...page.results.map(resultRow));
    const shown = body.rows.length;
    $('#search-message').textContent = shown ? `${shownOf(shown, page.total, 'job')} for “${q}”` : `No job found for “${q}”.`;
    $('#results').hidden = shown === 0;
    moreResults = page.next && (() => loadSearchPage(q, page.next));
    $('#search-more').hidden = !page.next;
  } catch (error) {
    if (searching === searchesStarted) $('#search-message').textContent = error.message;
  }
}

function resultRow(job) {
  const tr = row([job.kind, job.orderId || job.jobId, job.customerId, status(job.status), job.attempts, time(job.updatedAt)]);
  tr.tabIndex = 0;
  tr.dataset.jobId = job.jobId;
  tr.addEventListener('click', () => showDetail(job));
  tr.addEventListener('keydown', (e) => e.key === 'Enter' && showDetail(job));
  return tr;
}

/** Counts the details opened, so a late answer for an earlier one does not fill in the one shown. */
let detailsShown = 0;

/** The job whose detail is shown (what its Reconcile button acts on). */
let detailJob = null;

/**
 * Opens a job's detail. After an action on its order, `minRevision` (the revision the action answered)
 * makes the order's read wait for nothing and show what the action recorded (read-your-writes).
 */
async function showDetail(job, { message = '', minRevision, scroll = true } = {}) {
  detailsShown += 1;
  detailJob = job;
  $('#detail').hidden = false;
  $('#detail-message').textContent = message;
  $('#detail-reconcile').hidden = !job.orderId;
  $('#detail-title').textContent = job.orderId ? `Order ${job.orderId}` : `Job ${job.jobId}`;
  const fields = [
    ['Status', status(job.status)],
    ['Job id', job.jobId],
    ['Request id', job.requestId],
    ['External reference', job.externalReference],
    ['Customer', job.customerId],
    ['Attempts', job.attempts],
    ['Last error', job.lastError],
    ['Last retry', time(job.lastRetryAt)],
    ['Updated', time(job.updatedAt)],
  ];
  showFields($('#detail-fields'), fields);
  await Promise.all([showOrder(job, fields, minRevision), showTimeline(job)]);
  if (scroll) $('#detail').scrollIntoView({ block: 'nearest' });
}

/**
 * For a charge, the order itself beside its job (GET /v1/orders/{id}): the job's status says where the
 * work is (pending, done), the order's what is known of the money — "unknown" while the provider's
 * answer was lost and the card may have been charged, which a pending job does not tell — with the
 * amount and the payment intent to look up at the provider.
 */
async function showOrder(job, jobFields, minRevision) {
  if (!job.orderId) return;
  const shown = detailsShown;
  let orderFields;
  try {
    const order = await api(
      `/v1/orders/${encodeURIComponent(job.orderId)}${minRevision === undefined ? '' : `?minRevision=${minRevision}`}`,
    );
    orderFields = [
      ['Order status', status(order.status)],
      ['Amount', `${order.amount} ${order.currency} (minor units)`],
      ['Payment intent', order.paymentIntentId],
    ];
  } catch (error) {
    orderFields = [['Order status', `unavailable: ${error.message}`]];
  }
  if (shown !== detailsShown) return;
  showFields($('#detail-fields'), [jobFields[0], ...orderFields, ...jobFields.slice(1)]);
}

/**
 * The order's events, as the stream holds them. An answer that comes after another detail was opened (or
 * this one opened again) is dropped: added to the list, it put one order's events under another's title.
 */
async function showTimeline(job) {
  const shown = detailsShown;
  const list = $('#timeline');
  list.replaceChildren();
  if (!job.orderId) {
    $('#timeline-message').textContent = 'Import runs: see GET /v1/sync/runs/{runId} for their progress.';
    return;
  }
  $('#timeline-message').textContent = 'Loading…';
  try {
    const { events } = await api(`/v1/orders/${encodeURIComponent(job.orderId)}/events`);
    if (shown !== detailsShown) return;
    $('#timeline-message').textContent = plural(events.length, 'event');
    list.replaceChildren(...events.map(timelineItem));
  } catch (error) {
    if (shown === detailsShown) $('#timeline-message').textContent = error.message;
  }
}

function timelineItem(e) {
  const li = element('li');
  const actor = e.metadata.actor ? `${e.metadata.actor.role}:${e.metadata.actor.tokenId}` : 'system';
  li.append(element('strong', e.type), element('span', ` · revision ${e.revision} · ${time(e.metadata.recordedAt)} · ${actor}`));
  li.append(eventDetails(e));
  return li;
}

/**
 * Recovery for the order shown, now (DESIGN.md §7.4): an order stuck in processing or unknown is checked
 * with the provider and the outcome recorded; the detail is then read again, as it is after it.
 */
async function reconcileShown() {
  const job = detailJob;
  if (!job?.orderId) return;
  $('#detail-message').textContent = 'Asking the provider…';
  try {
    const path = `/v1/support/orders/${encodeURIComponent(job.orderId)}/reconcile`;
    const answer = await whileInFlight([$('#detail-reconcile')], () => api(path, { method: 'POST' }));
    if (job !== detailJob) return;
    $('#detail-message').textContent = `Order ${job.orderId} ${reconciled(answer)}.`;
    await showWhatTheActionDid(job.orderId, answer.order?.revision);
  } catch (error) {
    if (job === detailJob) $('#detail-message').textContent = `Order ${job.orderId}: ${error.message}`;
  }
}

/**
 * Runs an action with the controls that start it disabled until its answer is in. A second click (a
 * double click, an impatient one on a slow connection) sent the action again, and its answer replaced the
 * first one's: a resolution that went through read "not waiting for review". Focus goes back to the
 * control that had it, so a keyboard user goes on from where they were.
 */
async function whileInFlight(controls, action) {
  const focused = controls.find((control) => control === document.activeElement);
  for (const control of controls) control.disabled = true;
  try {
    return await action();
  } finally {
    for (const control of controls) control.disabled = false;
    if (focused?.isConnected && !focused.hidden && document.activeElement === document.body) focused.focus();
  }
}

// ---- needs review: reconcile and resolve ------------------------------------------------------------------

/** Counts the reloads of the review list, so a late page of an earlier one is not appended to a newer one. */
let reviewListsLoaded = 0;

/** Loads the next page of the review list; null when every case is shown. */
let moreReviews = null;

/** The message the list's own failed load wrote (cleared by its next load); an action's outcome is left alone. */
let reviewLoadError = null;

/** The list from its start (Refresh, a login, after an action), or its page after `cursor` (More), appended. */
async function loadReviews(cursor) {
  const loading = cursor ? reviewListsLoaded : ++reviewListsLoaded;
  const body = $('#review-list tbody');
  $('#reviews-more').hidden = true;
  try {
    const page = await api(pageOf('/v1/support/reviews', cursor));
    if (loading !== reviewListsLoaded) return;
    if (reviewLoadError !== null && $('#review-message').textContent === reviewLoadError) $('#review-message').textContent = '';
    reviewLoadError = null;
    if (cursor) body.append(...page.results.map(reviewRow));
    else showFirstPage(body, page.results);
    const shown = body.rows.length;
    $('#review-count').textContent = shown ? `${shownOf(shown, page.total, 'case')} in review` : '';
    if (!shown) body.append(row(['Nothing waits for review.', '', '', '']));
    moreReviews = page.next && (() => loadReviews(page.next));
    $('#reviews-more').hidden = !page.next;
  } catch (error) {
    if (loading !== reviewListsLoaded) return;
    reviewLoadError = `${error.message}`;
    $('#review-message').textContent = reviewLoadError;
  }
}

/**
 * The list's first page, read again: a case still listed keeps its row (updated in place), so a note
 * being typed there, the choice made, the request id of a resolution to resend and the focus survive a
 * reload that another case's action started; rows of cases no longer listed go, new ones come in order.
 */
function showFirstPage(body, jobs) {
  const listed = new Map([...body.rows].filter((tr) => tr.refresh).map((tr) => [tr.dataset.jobId, tr]));
  const rows = jobs.map((job) => listed.get(job.jobId)?.refresh(job) ?? reviewRow(job));
  for (const tr of [...body.rows]) if (!rows.includes(tr)) tr.remove();
  rows.forEach((tr, n) => body.rows[n] !== tr && body.insertBefore(tr, body.rows[n] ?? null));
}

// No route resumes an import run, and support may not start one: an operator does, from the command line.
function resumeHint(job) {
  const runId = job.jobId.replace(/^import-run:/, '');
  return `An operator resumes this import on the command line: idem sync resume ${runId}`;
}

function reviewRow(job) {
  if (!job.orderId) return listedCase(row([job.jobId, job.lastError, time(job.updatedAt), resumeHint(job)]), job);
  const actions = element('div');
  const reconcile = element('button', 'Reconcile');
  reconcile.type = 'button';
  // A screen reader reads a row's buttons alone: each names its order, as the note and the select do.
  reconcile.setAttribute('aria-label', `Reconcile order ${job.orderId}`);
  reconcile.addEventListener('click', () =>
    act(`/v1/support/orders/${encodeURIComponent(job.orderId)}/reconcile`, undefined, job, actions),
  );
  const note = element('input', undefined, 'review-note');
  note.placeholder = 'Note (what was decided and why)';
  note.setAttribute('aria-label', `Note for order ${job.orderId}`);
  const resolution = element('select');
  resolution.setAttribute('aria-label', `Resolution for order ${job.orderId}`);
  // No decision is preselected: "paid" or "failed" is support's to choose, after checking.
  const choose = new Option('paid or failed?', '', true, true);
  choose.disabled = true;
  resolution.append(choose, new Option('paid', 'paid'), new Option('failed', 'failed'));
  const resolve = element('button', 'Resolve');
  resolve.type = 'button';
  resolve.setAttribute('aria-label', `Resolve order ${job.orderId}`);
  const decisions = new DecisionRequests();
  resolve.addEventListener('click', () => {
    if (!resolution.value) {
      $('#review-message').textContent = `Order ${job.orderId}: choose paid or failed first.`;
      return;
    }
    const body = { resolution: resolution.value, note: note.value.trim() };
    void act(`/v1/support/orders/${encodeURIComponent(job.orderId)}/resolve`, body, job, actions, decisions);
  });
  actions.append(reconcile, ' ', note, ' ', resolution, ' ', resolve);
  // The order opens in the detail above, with its provider references and timeline, to decide on.
  const open = element('button', job.orderId, 'open-case');
  open.type = 'button';
  open.title = `Open order ${job.orderId}: its detail and event timeline`;
  const tr = listedCase(row([open, job.lastError, time(job.updatedAt), actions]), job);
  open.addEventListener('click', () => showDetail(tr.job));
  tr.dataset.orderId = job.orderId;
  return tr;
}

/** A case's row, as showFirstPage updates it: its job as last read, and the cells that change with it. */
function listedCase(tr, job) {
  tr.dataset.jobId = job.jobId;
  tr.job = job;
  tr.refresh = (fresh) => {
    tr.job = fresh;
    tr.cells[1].textContent = fresh.lastError ?? '—';
    tr.cells[2].textContent = time(fresh.updatedAt);
    return tr;
  };
  return tr;
}

/**
 * The X-Request-Id of a case's resolution: one per decision (resolution, note and any amount accepted),
 * kept while it stays the same. The service answers a resolution resent with the request id, resolution and note that closed
 * the case with what it did (200), and any other one with 422 ORDER.NOT_IN_REVIEW: so a Resolve clicked
 * again after "could not be reached", when the first one was recorded and only its answer lost, says
 * "resolved" instead of calling the case closed by someone.
 */
class DecisionRequests {
  idFor({ resolution, note, acceptedAmount }) {
    const decision = JSON.stringify([resolution, note, acceptedAmount]);
    if (decision !== this.decision) [this.decision, this.requestId] = [decision, randomRequestId()];
    return this.requestId;
  }
}

/** 32 random hex digits: crypto.randomUUID exists only in secure contexts, and the screen may be served over plain http. */
const randomRequestId = () =>
  `admin-${Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('')}`;

/**
 * Runs one action and shows its outcome in the case's row, then the list, the count and the detail as
 * the action left them (showWhatTheActionDid).
 */
async function act(path, body, job, actions, decisions) {
  $('#review-message').textContent = 'Working…';
  const place = placeInList(actions);
  try {
    const controls = [...actions.querySelectorAll('button, input, select')];
    const requestId = body && decisions?.idFor(body);
    const answer = await whileInFlight(controls, () => api(path, { method: 'POST', body, requestId }));
    const outcome = body ? `resolved as ${answer.status}` : reconciled(answer);
    $('#review-message').textContent = `Order ${job.orderId} ${outcome}.`;
    if (body || answer.newStatus !== 'needs_review') {
      actions.replaceChildren(outcomeNote(outcome));
      // Its controls are gone: a case still listed when the list is read again comes back with a row of its own.
      actions.closest('tr').refresh = undefined;
    }
    place.keep();
    await showWhatTheActionDid(job.orderId, body ? answer.revision : answer.order?.revision);
    place.keep();
  } catch (error) {
    $('#review-message').textContent = `Order ${job.orderId}: ${error.message}`;
    const accept = body && acceptOtherAmount(error.problem, path, body, job, actions, decisions);
    if (accept) actions.append(' ', accept);
    await loadOverview();
  }
}

/** What an action did, in its case's row: focusable by script only, to keep a keyboard user's place there. */
function outcomeNote(outcome) {
  const note = element('span', outcome);
  note.tabIndex = -1;
  return note;
}

/**
 * A keyboard user's place in the review list, kept across an action on one of its cases: the action's
 * outcome replaces the row's controls, and the list read again drops a resolved case, each time taking
 * away the control that had focus (focus fell back to the page's start). `keep()` puts focus, when it was
 * in the row and has been lost, on the row now at that place (the next case), or on the last one, or on Refresh.
 */
function placeInList(actions) {
  const tr = actions.closest('tr');
  const index = tr.sectionRowIndex;
  const focused = tr.contains(document.activeElement);
  return {
    keep() {
      if (!focused || (document.activeElement !== document.body && document.activeElement !== null)) return;
      const rows = [...$('#review-list tbody').rows];
      const target = tr.isConnected ? tr : rows[Math.min(index, rows.length - 1)];
      (target?.querySelector('button, [tabindex]') ?? $('#refresh-reviews')).focus();
    },
  };
}

/** How long the screen waits for the support list to show an action before saying it has not yet. */
const CATCH_UP_MS = 15_000;

/**
 * The review list, its count, the header, a search row and an open detail of `orderId`, as an action that
 * answered with the order at `revision` left them. They are read from the support list, a read model a
 * moment behind the event the action recorded: read at once, they would still count a resolved case as
 * open and show its old status as current. So until the order's row there reaches that revision the count
 * says it is catching up, and all is read again once it has (or, when it does not in CATCH_UP_MS, the
 * count says so and Refresh reads it later).
 */
async function showWhatTheActionDid(orderId, revision) {
  const count = $('#review-count');
  const catchingUp = `updating: the list is catching up with order ${orderId}…`;
  count.textContent = count.textContent ? `${count.textContent} — ${catchingUp}` : catchingUp;
  let job;
  let behind = '';
  try {
    job = Number.isInteger(revision) ? await jobAtRevision(orderId, revision) : undefined;
    if (Number.isInteger(revision) && !job) behind = `the list does not show what was done to order ${orderId} yet: Refresh in a moment.`;
  } catch (error) {
    behind = `the list could not be read again after order ${orderId}: ${error.message}`;
  }
  await Promise.all([loadReviews(), loadOverview()]);
  if (behind) $('#review-count').textContent += ` — ${behind}`;
  if (job) $(`#results tbody tr[data-job-id="${CSS.escape(job.jobId)}"]`)?.replaceWith(resultRow(job));
  if (detailJob?.orderId !== orderId) return;
  // The order and its timeline are read from the stream (minRevision): current, whatever the list shows.
  const message = `${$('#detail-message').textContent}${job || !behind ? '' : ` The job's fields are from before it: ${behind}`}`;
  await showDetail(job ?? detailJob, { message, minRevision: revision, scroll: false });
}

/** The charge job of `orderId` once the support list shows it at `revision` or later; undefined if not in time. */
async function jobAtRevision(orderId, revision) {
  const deadline = Date.now() + CATCH_UP_MS;
  for (let pause = 25; ; pause = Math.min(pause * 2, 500)) {
    const { results } = await api(`/v1/support/search?q=${encodeURIComponent(`charge-order:${orderId}`)}`);
    const job = results.find((found) => found.orderId === orderId);
    if (job && job.revision >= revision) return job;
    if (Date.now() + pause > deadline) return undefined;
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

/**
 * "paid", but the provider's payment is another amount than the order (422 ORDER.PAYMENT_AMOUNT_MISMATCH):
 * the service takes it only when support says so, by sending that amount as `acceptedAmount`. The screen
 * offers exactly that, naming the amount (in minor units, as the problem does); another currency cannot
 * be accepted (it is refunded), so nothing is offered then.
 */
function acceptOtherAmount(problem, path, body, job, actions, decisions) {
  const paid = problem && problem.code === 'ORDER.PAYMENT_AMOUNT_MISMATCH' ? problem.paid : undefined;
  if (!paid || !problem.ordered || paid.currency !== problem.ordered.currency || !Number.isInteger(paid.amount)) return undefined;
  const existing = actions.querySelector('.accept-amount');
  if (existing) existing.remove();
  const button = element('button', `Accept ${paid.amount} ${paid.currency} as paid`, 'accept-amount');
  button.type = 'button';
  button.addEventListener('click', () => void act(path, { ...body, acceptedAmount: paid.amount }, job, actions, decisions));
  return button;
}

/**
 * What reconciling did, with the recovery's reason: "nothing to recover (needs_review)" on a case in review,
 * "still unknown: …" while the provider cannot tell — without it, support saw only "needs_review → needs_review".
 */
const reconciled = ({ oldStatus, newStatus, reason }) =>
  oldStatus === newStatus ? `unchanged: ${reason}` : `reconciled: ${oldStatus} → ${newStatus} (${reason})`;

// ---- audit: verify the hash chain, page through the global history -------------------------------------

/**
 * Counts the verifications asked for: the whole history takes long to verify, and its answer, arriving
 * after a stream asked for meanwhile, took the stream's place on the screen.
 */
let verificationsAsked = 0;

async function verify(event) {
  event.preventDefault();
  const asked = ++verificationsAsked;
  const stream = $('#verify-stream').value.trim();
  $('#verify-report').replaceChildren();
  $('#verify-message').textContent = 'Verifying…';
  try {
    const report = await api(`/v1/audit/verify${stream ? `?stream=${encodeURIComponent(stream)}` : ''}`);
    if (asked !== verificationsAsked) return;
    const scope = stream ? `stream ${stream}` : 'the whole history and its seals';
    $('#verify-message').replaceChildren(
      report.ok ? element('strong', 'OK', 'verified') : element('strong', `Broken: ${report.firstBreak.kind}`, 'broken'),
      ` — ${scope}`,
    );
    showFields($('#verify-report'), [...verifyCounts(report), ...breakFields(report.firstBreak)]);
  } catch (error) {
    if (asked === verificationsAsked) $('#verify-message').textContent = error.message;
  }
}

const verifyCounts = (report) => [
  ['Events checked', report.checked],
  ['Seals checked', report.sealsChecked],
  ['Not yet chained', report.unchained],
  ['Running digest', report.digest],
];

/** Where the history first stops agreeing with its chain: expected is what the chain recorded, actual what the events give now. */
const breakFields = (first) =>
  first
    ? [
        ['Kind', first.kind],
        ['Stream', first.stream],
        ['Revision', first.revision],
        ['Position', first.position],
        ['Detail', first.detail],
        ['Expected hash', first.expected],
        ['Actual hash', first.actual],
      ]
    : [];

/** The `after` of the next page; null at the end of history (for now: more may be appended). */
let historyNext = null;

/** Counts the pages asked for: From the start while the next page loads shows the first page, not the late one. */
let historyPagesAsked = 0;

async function loadHistory(after) {
  const asked = ++historyPagesAsked;
  const limit = $('#history-limit').value;
  $('#history-next').disabled = true;
  $('#history-message').textContent = 'Loading…';
  try {
    const query = `limit=${encodeURIComponent(limit)}${after ? `&after=${encodeURIComponent(after)}` : ''}`;
    const { events, next } = await api(`/v1/audit/events?${query}`);
    if (asked !== historyPagesAsked) return;
    historyNext = next;
    $('#history-next').disabled = !next;
    // Nothing after a full page (the history holds a multiple of the limit): the page shown stays.
    if (after && !events.length) {
      $('#history-message').textContent = `No events after ${after}: the end of history for now.`;
      return;
    }
    $('#history-message').textContent =
      (events.length ? `Positions ${events[0].position} to ${events.at(-1).position}.` : 'No events.') +
      (next ? '' : ' End of history for now.');
    $('#history-list tbody').replaceChildren(...events.map(historyRow));
    $('#history-list').hidden = events.length === 0;
  } catch (error) {
    if (asked === historyPagesAsked) $('#history-message').textContent = error.message;
  }
}

function historyRow(e) {
  const type = element('div');
  type.append(element('strong', e.type), eventDetails(e));
  return row([e.position, `${e.stream}@${e.revision}`, type, e.metadata.previousEventHash, e.chainHash ?? 'not chained yet']);
}

document.addEventListener('DOMContentLoaded', () => {
  $('#login-form').addEventListener('submit', logIn);
  $('#search-form').addEventListener('submit', search);
  $('#logout').addEventListener('click', logOut);
  $('#detail-reconcile').addEventListener('click', reconcileShown);
  $('#refresh-reviews').addEventListener('click', () => Promise.all([loadReviews(), loadOverview()]));
  $('#search-more').addEventListener('click', () => moreResults?.());
  $('#reviews-more').addEventListener('click', () => moreReviews?.());
  $('#verify-form').addEventListener('submit', verify);
  $('#history-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void loadHistory();
  });
  $('#history-next').addEventListener('click', () => loadHistory(historyNext));
  if (sessionStorage.getItem(TOKEN_KEY)) void resumeSession();
});
