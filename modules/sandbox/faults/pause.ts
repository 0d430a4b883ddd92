import type { Socket } from 'node:net';

export type PauseEnd = 'elapsed' | 'shutdown' | 'client_closed';

/**
 * Waits `ms`, ending early when the sandbox shuts down or (if a socket is given) when the client
 * closes the connection: a held request must never keep the process or a test alive.
 */
export function pause(ms: number, shutdown: AbortSignal, socket?: Socket): Promise<PauseEnd> {
  return new Promise((resolve) => {
    if (shutdown.aborted) return resolve('shutdown');
    if (socket?.destroyed) return resolve('client_closed');
    const finish = (end: PauseEnd) => {
      clearTimeout(timer);
      shutdown.removeEventListener('abort', onShutdown);
      socket?.removeListener('close', onClose);
      resolve(end);
    };
    const onShutdown = () => finish('shutdown');
    const onClose = () => finish('client_closed');
    const timer = setTimeout(() => finish('elapsed'), ms);
    shutdown.addEventListener('abort', onShutdown);
    socket?.once('close', onClose);
  });
}
