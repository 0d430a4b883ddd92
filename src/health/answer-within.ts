/**
 * `work`, or a rejection `no answer within <ms> ms` once `timeoutMs` has passed. For the reads that
 * operations routes make of the stores (readiness, /metrics, the admin screen's header): a store that
 * does not answer must not hold the route past what its caller waits. The work left behind is not
 * cancelled; its late failure is swallowed.
 */
export async function answerWithin<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  work.catch(() => undefined);
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
