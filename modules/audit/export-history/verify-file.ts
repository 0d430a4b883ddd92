/** `idem audit verify-file`: reads an export line by line through the ExportChecker; needs no database. */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { VerifyReport } from '../verify-history/chain-break';
import { ExportChecker } from './export-checker';

export async function verifyExportFile(path: string): Promise<VerifyReport> {
  const checker = new ExportChecker();
  const input = createReadStream(path, { encoding: 'utf8' });
  const lines = createInterface({ input, crlfDelay: Infinity });
  try {
    for await (const line of lines) if (!checker.line(line)) break;
  } finally {
    lines.close();
    input.destroy();
  }
  return checker.report();
}
