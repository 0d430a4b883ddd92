export interface ConfigProblem {
  variable: string;
  problem: string;
}

/** Start-up stops on this; the message names every bad variable and what is wrong with it. */
export class ConfigError extends Error {
  constructor(readonly problems: ConfigProblem[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  ${p.variable} ${p.problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}
