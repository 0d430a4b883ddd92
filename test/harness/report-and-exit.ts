/** A child for reporting-child.int.spec.ts: one report, then it exits with the code it is given. */
process.stdout.write(`${JSON.stringify({ event: 'started' })}\n`);
process.exitCode = Number(process.env.EXIT_CODE ?? 0);
