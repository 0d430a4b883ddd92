import { answerWithin } from './answer-within';

export type Check = { status: 'up' | 'down'; error?: string };

/** Runs one readiness check; a rejection or no answer within `timeoutMs` is `down`, with the reason. */
export async function probe(check: () => Promise<unknown>, timeoutMs = 2000): Promise<Check> {
  try {
    await answerWithin(Promise.resolve().then(check), timeoutMs);
    return { status: 'up' };
  } catch (error) {
    return { status: 'down', error: (error as Error).message };
  }
}
