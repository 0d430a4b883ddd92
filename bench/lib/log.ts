/** Progress goes to stderr, so stdout carries only the summary and the final JSON line. */
const started = Date.now();

export function progress(message: string): void {
  const seconds = ((Date.now() - started) / 1000).toFixed(1).padStart(6);
  process.stderr.write(`[bench ${seconds}s] ${message}\n`);
}
