import { describeChargeJob } from './charge-job-state';

const job = (fields: Partial<Parameters<typeof describeChargeJob>[0] & object>) => ({
  attempts: 0,
  max_attempts: 25,
  locked_by: null,
  last_error: null,
  ...fields,
});

describe('describeChargeJob', () => {
  it('tells the operator to start a worker when no job was queued or none was taken', () => {
    expect(describeChargeJob(undefined)).toBe(
      'no worker has queued or run its charge job; is a worker running? start one (npm run worker)',
    );
    expect(describeChargeJob(job({}))).toBe(
      'its charge job is queued and no worker has taken it; is a worker running? start one (npm run worker)',
    );
  });

  it('names the worker that holds the job', () => {
    expect(describeChargeJob(job({ attempts: 1, locked_by: 'w-7' }))).toBe('worker w-7 holds its charge job and had started no attempt');
  });

  it('says how often the job ran, whether it gave up, and the first line of its last error', () => {
    expect(describeChargeJob(job({ attempts: 3, last_error: 'lookup timed out\n  at stack' }))).toBe(
      'its charge job ran 3 times without an attempt (last error: lookup timed out)',
    );
    expect(describeChargeJob(job({ attempts: 25, last_error: 'x' }))).toBe(
      'its charge job ran 25 times without an attempt and gave up (last error: x)',
    );
  });

  it('says a job that ran once ran "1 time", not "1 time(s)"', () => {
    expect(describeChargeJob(job({ attempts: 1, max_attempts: 1, last_error: 'x' }))).toBe(
      'its charge job ran 1 time without an attempt and gave up (last error: x)',
    );
  });
});
