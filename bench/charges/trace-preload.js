/**
 * Diagnostics for bench:charges (BENCH_TRACE=1), loaded into the service process with `node -r`: it
 * changes no service code, it only watches. It counts every PostgreSQL statement the process sends
 * (by prepared-statement name or the start of its text) with its wall time, how long callers waited
 * for a pool connection, and the event loop's utilisation and delay. It can also take a CPU profile
 * of a chosen window.
 *
 * The benchmark drives it through a command file, not a signal (Nest's enableShutdownHooks() closes
 * the app on SIGUSR2 and most others): it writes `<n> snapshot`, `<n> profile-start` or
 * `<n> profile-stop <path>` or `<n> gc` (with --expose-gc: collect, then snapshot) to `$BENCH_TRACE_FILE.cmd`, which this module looks at every 50 ms, and
 * waits for `$BENCH_TRACE_FILE` to show `seq` n. Counters are cumulative; the benchmark subtracts.
 * The instrumentation costs a few µs per query, so traced runs are for finding where time goes, not
 * for the headline figures.
 */
'use strict';
const { readFileSync, renameSync, writeFileSync } = require('node:fs');
const { performance, monitorEventLoopDelay } = require('node:perf_hooks');

const file = process.env.BENCH_TRACE_FILE;
if (!file) throw new Error('trace-preload.js needs BENCH_TRACE_FILE');

const pg = require('pg');

const queries = new Map();
const pools = new Map();

function normalise(text) {
  return String(text).replace(/\s+/g, ' ').trim().slice(0, 90);
}

function keyOf(config) {
  if (typeof config === 'string') return normalise(config);
  if (config && typeof config === 'object') {
    if (config.name) return `[${config.name}] ${normalise(config.text ?? '')}`;
    if (config.text) return normalise(config.text);
    if (typeof config.submit === 'function') return `<${config.constructor?.name ?? 'submittable'}>`;
  }
  return '<unknown>';
}

function record(key, ms, ok) {
  let entry = queries.get(key);
  if (!entry) queries.set(key, (entry = { calls: 0, ms: 0, errors: 0 }));
  entry.calls++;
  entry.ms += ms;
  if (!ok) entry.errors++;
}

const originalQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function tracedQuery(config, values, callback) {
  const key = keyOf(config);
  const started = performance.now();
  if (typeof callback === 'function') {
    return originalQuery.call(this, config, values, function (error, result) {
      record(key, performance.now() - started, !error);
      return callback.apply(this, arguments);
    });
  }
  if (typeof values === 'function') {
    return originalQuery.call(this, config, function (error, result) {
      record(key, performance.now() - started, !error);
      return values.apply(this, arguments);
    });
  }
  const result = originalQuery.call(this, config, values);
  if (result && typeof result.then === 'function') {
    result.then(
      () => record(key, performance.now() - started, true),
      () => record(key, performance.now() - started, false),
    );
  } else {
    record(key, 0, true);
  }
  return result;
};

function poolEntry(pool) {
  const name = `${pool.options.application_name ?? 'pool'} (max ${pool.options.max})`;
  let entry = pools.get(name);
  if (!entry) pools.set(name, (entry = { checkouts: 0, waitMs: 0, waitedOver1ms: 0, maxWaiting: 0, maxTotal: 0 }));
  return entry;
}

const originalConnect = pg.Pool.prototype.connect;
pg.Pool.prototype.connect = function tracedConnect(callback) {
  const entry = poolEntry(this);
  entry.maxWaiting = Math.max(entry.maxWaiting, this.waitingCount + 1);
  entry.maxTotal = Math.max(entry.maxTotal, this.totalCount);
  const started = performance.now();
  const done = () => {
    const waited = performance.now() - started;
    entry.checkouts++;
    entry.waitMs += waited;
    if (waited > 1) entry.waitedOver1ms++;
  };
  if (typeof callback === 'function') {
    return originalConnect.call(this, (error, client, release) => {
      done();
      callback(error, client, release);
    });
  }
  return originalConnect.call(this).then(
    (client) => {
      done();
      return client;
    },
    (error) => {
      done();
      throw error;
    },
  );
};

const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();

let seq = 0;
let session;

function snapshot() {
  const elu = performance.eventLoopUtilization();
  const state = {
    seq,
    at: Date.now(),
    cpu: process.cpuUsage(),
    memory: process.memoryUsage(),
    eventLoop: {
      activeMs: elu.active,
      idleMs: elu.idle,
      delayP50Ms: delay.percentile(50) / 1e6,
      delayP99Ms: delay.percentile(99) / 1e6,
      delayMaxMs: delay.max / 1e6,
    },
    queries: Object.fromEntries(queries),
    pools: Object.fromEntries(pools),
  };
  delay.reset();
  writeFileSync(`${file}.tmp`, JSON.stringify(state));
  renameSync(`${file}.tmp`, file);
}

function profileStart(done) {
  const inspector = require('node:inspector');
  session = new inspector.Session();
  session.connect();
  session.post('Profiler.enable', () =>
    session.post('Profiler.setSamplingInterval', { interval: 500 }, () => session.post('Profiler.start', done)),
  );
}

function profileStop(path, done) {
  if (!session) return done();
  session.post('Profiler.stop', (error, result) => {
    if (!error) writeFileSync(path, JSON.stringify(result.profile));
    session.disconnect();
    session = undefined;
    done();
  });
}

let busy = false;
setInterval(() => {
  if (busy) return;
  let line;
  try {
    line = readFileSync(`${file}.cmd`, 'utf8').trim();
  } catch {
    return; // no command yet
  }
  const space = line.indexOf(' ');
  const n = Number(line.slice(0, space));
  if (!(n > seq)) return;
  seq = n;
  const command = line.slice(space + 1);
  busy = true;
  const done = () => {
    snapshot();
    busy = false;
  };
  if (command === 'gc') {
    // Only with --expose-gc: what the heap holds once the garbage is gone.
    if (typeof global.gc === 'function') global.gc();
    done();
  } else if (command === 'profile-start') profileStart(done);
  else if (command.startsWith('profile-stop ')) profileStop(command.slice('profile-stop '.length), done);
  else done();
}, 50).unref();
