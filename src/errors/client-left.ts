/**
 * The client closed its connection before the answer was ready (a long verification it gave up on):
 * nobody is left to answer and nothing went wrong on our side, so it is not logged as an error.
 */
export class ClientLeft extends Error {
  constructor(what: string) {
    super(`the client left before ${what} ended`);
    this.name = 'ClientLeft';
  }
}
