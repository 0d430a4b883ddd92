/**
 * The command path for a {@link Decider} that bundles its decision with its evolution (the contact
 * import): the same load → decide → append as {@link commandHandler}, with the command decided by
 * the decider's own `decide`.
 */
import type { EventStore } from '../event-store/event-store.port';
import { commandHandler, type CommandContext, type CommandOutcome } from './command-handler';
import type { Decider, DomainEvent } from './decider';

export type { CommandContext, CommandOutcome } from './command-handler';

export function handleCommand<Command, State, E extends DomainEvent>(
  store: EventStore,
  stream: string,
  decider: Decider<Command, State, E>,
  command: Command,
  context: CommandContext,
): Promise<CommandOutcome<State, E>> {
  return commandHandler(decider).handle(store, stream, (state) => decider.decide(command, state), context);
}
