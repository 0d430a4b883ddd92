// The support screen: plain DOM, no framework, no build step. Every value from the service is set as
// text (never as markup): notes, errors and ids come from customers and providers.
'use strict';

const TOKEN_KEY = 'idem.supportToken';
const $ = (selector) => document.querySelector(selector);

/** A non-2xx answer, carrying the service's problem+json (title, code, per-field errors). */
class ProblemError extends Error {
  constructor(status, problem) {
    super(describeProblem(status, problem));
    this.status = status;
  }
}

function describeProblem(status, problem) {
  const fields = (problem.errors || []).map((e) => e.message).join('; ');
  const what = problem.detail || problem.title || `HTTP ${status}`;
  return [what, fields, problem.code && `(${problem.code})`].filter(Boolean).join(' ');
}

async function api(path, { method = 'GET', body, token = sessionStorage.getItem(TOKEN_KEY) } = {}) {
  const headers = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new ProblemError(response.status, answer);
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

const plural = (count, noun) => `${count} ${noun}${count === 1 ? '' : 's'}`;
const time = (iso) => (iso ? `${iso.replace('T', ' ').slice(0, 19)} UTC` : '—');
const status = (value) => element('span', value, `status-${value}`);

// ---- login -----------------------------------------------------------------------------------------

async function logIn(event) {
  event.preventDefault();
  const token = $('#token').value.trim();
  $('#login-error').textContent = '';
  try {
    // The overview is a support-only route: it proves the token and the role in one call.
    await api('/v1/support/overview', { token });
  } catch (error) {
    $('#login-error').textContent =
      error.status === 401
        ? 'That token is not known to this service.'
        : error.status === 403
          ? 'That token is not a support token.'
          : error.message;
    return;
  }
  sessionStorage.setItem(TOKEN_KEY, token);
  $('#token').value = '';
  await enterWorkspace();
}

function logOut() {
  sessionStorage.removeItem(TOKEN_KEY);
  $('#workspace').hidden = true;
  $('#overview').hidden = true;
  $('#logout').hidden = true;
  $('#login').hidden = false;
}

async function enterWorkspace() {
  $('#login').hidden = true;
  $('#workspace').hidden = false;
  $('#overview').hidden = false;
  $('#logout').hidden = false;
  await Promise.all([loadOverview(), loadReviews()]);
}

// ---- header: duplicates absorbed and projection lag ---------------------------------------------------

async function loadOverview() {
  try {
    const { duplicatesAbsorbed, projections } = await api('/v1/support/overview');
    const { replayedAnswers, importRecords } = duplicatesAbsorbed;
    $('#duplicates').textContent =
      `${replayedAnswers.count} repeated requests answered from the record (since ${time(replayedAnswers.since)}) · ` +
      `${importRecords.duplicate} duplicate and ${importRecords.unchanged} unchanged contact records`;
    const behind = projections.filter((p) => p.lagEvents > 0);
    $('#lag').textContent = behind.length
      ? behind
          .map((p) => `${p.name}: ${p.lagEventsAtLeast ? '≥' : ''}${plural(p.lagEvents, 'event')}, ${p.lagSeconds.toFixed(1)} s`)
          .join(' · ')
      : `caught up (${projections.map((p) => p.name).join(', ')})`;
  } catch (error) {
    $('#duplicates').textContent = $('#lag').textContent = `unavailable: ${error.message}`;
  }
}

// ---- search → list → detail ----------------------------------------------------------------------------

async function search(event) {
  event.preventDefault();
  const q = $('#q').value.trim();
  const body = $('#results tbody');
  body.replaceChildren();
  $('#results').hidden = true;
  try {
    const { results } = await api(`/v1/support/search?q=${encodeURIComponent(q)}`);
    $('#search-message').textContent = results.length ? `${plural(results.length, 'job')} for “${q}”` : `No job found for “${q}”.`;
    for (const job of results) {
      const tr = row([job.kind, job.orderId || job.jobId, job.customerId, status(job.status), job.attempts, time(job.updatedAt)]);
      tr.tabIndex = 0;
      tr.addEventListener('click', () => showDetail(job));
      tr.addEventListener('keydown', (e) => e.key === 'Enter' && showDetail(job));
      body.append(tr);
    }
    $('#results').hidden = results.length === 0;
  } catch (error) {
    $('#search-message').textContent = error.message;
  }
}

async function showDetail(job) {
  $('#detail').hidden = false;
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
  $('#detail-fields').replaceChildren(
    ...fields.flatMap(([name, value]) => {
      const dd = element('dd', value instanceof Node ? undefined : (value ?? '—'));
      if (value instanceof Node) dd.append(value);
      return [element('dt', name), dd];
    }),
  );
  await showTimeline(job);
  $('#detail').scrollIntoView({ block: 'nearest' });
}

async function showTimeline(job) {
  const list = $('#timeline');
  list.replaceChildren();
  if (!job.orderId) {
    $('#timeline-message').textContent = 'Import runs: see GET /v1/sync/runs/{runId} for their progress.';
    return;
  }
  $('#timeline-message').textContent = 'Loading…';
  try {
    const { events } = await api(`/v1/orders/${encodeURIComponent(job.orderId)}/events`);
    $('#timeline-message').textContent = plural(events.length, 'event');
    for (const e of events) {
      const li = element('li');
      const actor = e.metadata.actor ? `${e.metadata.actor.role}:${e.metadata.actor.tokenId}` : 'system';
      li.append(element('strong', e.type), element('span', ` · revision ${e.revision} · ${time(e.metadata.recordedAt)} · ${actor}`));
      const details = element('details');
      details.append(
        element('summary', 'data and metadata'),
        element('pre', JSON.stringify({ data: e.data, metadata: e.metadata }, null, 2)),
      );
      li.append(details);
      list.append(li);
    }
  } catch (error) {
    $('#timeline-message').textContent = error.message;
  }
}

// ---- needs review: reconcile and resolve ------------------------------------------------------------------

async function loadReviews() {
  const body = $('#review-list tbody');
  try {
    const { results } = await api('/v1/support/reviews');
    $('#review-message').textContent = '';
    body.replaceChildren(...results.map(reviewRow));
    if (!results.length) body.append(row(['Nothing waits for review.', '', '', '']));
  } catch (error) {
    $('#review-message').textContent = error.message;
  }
}

function reviewRow(job) {
  if (!job.orderId) return row([job.jobId, job.lastError, time(job.updatedAt), 'Resume the run from the sync API.']);
  const actions = element('div');
  const reconcile = element('button', 'Reconcile');
  reconcile.type = 'button';
  reconcile.addEventListener('click', () =>
    act(`/v1/support/orders/${encodeURIComponent(job.orderId)}/reconcile`, undefined, job, actions),
  );
  const note = element('input', undefined, 'review-note');
  note.placeholder = 'Note (what was decided and why)';
  note.setAttribute('aria-label', `Note for order ${job.orderId}`);
  const resolution = element('select');
  resolution.setAttribute('aria-label', `Resolution for order ${job.orderId}`);
  resolution.append(new Option('paid', 'paid'), new Option('failed', 'failed'));
  const resolve = element('button', 'Resolve');
  resolve.type = 'button';
  resolve.addEventListener('click', () =>
    act(
      `/v1/support/orders/${encodeURIComponent(job.orderId)}/resolve`,
      { resolution: resolution.value, note: note.value.trim() },
      job,
      actions,
    ),
  );
  actions.append(reconcile, ' ', note, ' ', resolution, ' ', resolve);
  const tr = row([job.orderId, job.lastError, time(job.updatedAt), actions]);
  tr.dataset.orderId = job.orderId;
  return tr;
}

/**
 * Runs one action and shows its outcome in the case's row. The list is not reloaded at once: it is a
 * read model, a moment behind the event just recorded, and would still show the case as open.
 */
async function act(path, body, job, actions) {
  $('#review-message').textContent = 'Working…';
  try {
    const answer = await api(path, { method: 'POST', body });
    const outcome = body ? `resolved as ${answer.status}` : `reconciled: ${answer.oldStatus} → ${answer.newStatus}`;
    $('#review-message').textContent = `Order ${job.orderId} ${outcome}.`;
    if (body || answer.newStatus !== 'needs_review') actions.replaceChildren(element('span', outcome));
  } catch (error) {
    $('#review-message').textContent = `Order ${job.orderId}: ${error.message}`;
  }
  await loadOverview();
}

document.addEventListener('DOMContentLoaded', () => {
  $('#login-form').addEventListener('submit', logIn);
  $('#search-form').addEventListener('submit', search);
  $('#logout').addEventListener('click', logOut);
  $('#refresh-reviews').addEventListener('click', () => Promise.all([loadReviews(), loadOverview()]));
  if (sessionStorage.getItem(TOKEN_KEY)) void enterWorkspace();
});
