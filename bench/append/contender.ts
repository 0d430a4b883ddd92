/**
 * One append contender, in its own process (started by run.ts through bench/lib/child.ts); what each
 * contender does per append is in append-one.ts. All use a pg pool of `writers` connections and the
 * same event (workload.ts).
 */
import { Pool } from 'pg';
import { childMain } from '../lib/child';
import { serverCpuSeconds } from '../lib/proc';
import { appendOneFor } from './append-one';
import { runWorkload, type AppendInput, type AppendResult } from './workload';

export interface ContenderInput extends AppendInput {
  postmasterPid?: number;
}

childMain<ContenderInput, AppendResult>(async (input) => {
  const pool = new Pool({ connectionString: input.url, max: input.writers });
  try {
    const appendOne = await appendOneFor(input.contender, pool, input.url);
    return await runWorkload(input, appendOne, () => serverCpuSeconds(input.postmasterPid));
  } finally {
    await pool.end();
  }
});
