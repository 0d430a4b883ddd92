export type Check = { status: 'up' | 'down'; error?: string };

/** Runs one readiness check; a rejection or no answer within `timeoutMs` is `down`, with the reason. */
export async function probe(check: () => Promise<unknown>, timeoutMs = 2000): Promise<Check> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return { status: 'up' };
  } catch (error) {
    return { status: 'down', error: (error as Error).message };
  } finally {
    clearTimeout(timer);
  }
}
