/**
 * What the connections of one pool class (answer-deadlines.ts) have learnt about their server: whether
 * it answers, and which of them sit idle, to be dropped once it does not.
 */
import { PostgresNotAnswering } from './not-answering';

/** How long after a failed attempt the next connection to a server that is not answering is tried. */
const PROBE_PAUSE_MS = 1_000;

export class ServerAnswers {
  readonly clients = new Set<{ dropIfIdle(error: PostgresNotAnswering): void }>();
  private silentSince: Date | undefined;
  private probing = false;
  private nextProbeAt = 0;

  get answering(): boolean {
    return this.silentSince === undefined;
  }

  /** While the server is not answering, connections are tried one at a time, PROBE_PAUSE_MS apart; the others fail at once. */
  refusal(): PostgresNotAnswering | undefined {
    if (!this.silentSince || (!this.probing && Date.now() >= this.nextProbeAt)) return undefined;
    return new PostgresNotAnswering(
      `PostgreSQL has not answered since ${this.silentSince.toISOString()}; connections are tried again one at a time, ${PROBE_PAUSE_MS} ms apart`,
    );
  }

  attempt(): { finished(connected: boolean): void } {
    const probe = !this.answering;
    if (probe) this.probing = true;
    return {
      finished: (connected) => {
        if (probe) {
          this.probing = false;
          this.nextProbeAt = Date.now() + PROBE_PAUSE_MS;
        }
        if (connected) this.answered();
      },
    };
  }

  answered(): void {
    this.silentSince = undefined;
  }

  notAnswering(error: PostgresNotAnswering): void {
    this.silentSince ??= new Date();
    for (const client of [...this.clients]) client.dropIfIdle(error);
  }
}
