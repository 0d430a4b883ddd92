/** The customers a round charges, made at the sandbox before the clock starts. */
import { runLoad } from './http-load';

export const benchCustomerId = (i: number): string => `cus_bench_${i}`;

/**
 * `POST /_sandbox/customers` for each id: the sandbox refuses a charge for a customer it does not hold,
 * as Stripe does, and `POST /_sandbox/reset` forgets them, so each round makes its own.
 */
export async function createCustomers(sandboxUrl: string, ids: string[]): Promise<void> {
  let created = 0;
  const load = await runLoad({
    url: sandboxUrl,
    concurrency: 8,
    total: ids.length,
    request: (i) => ({ method: 'POST', path: '/_sandbox/customers', body: JSON.stringify({ id: ids[i] }) }),
    onAnswer: (_, answer) => {
      if (answer.status === 201) created++;
    },
  });
  if (created !== ids.length)
    throw new Error(
      `creating the sandbox's customers failed: ${created}/${ids.length} created${load.firstError ? `, ${load.firstError}` : ''}`,
    );
}
