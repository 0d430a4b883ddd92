import { createServer, type Server } from 'node:net';
import { AddressInUse, addressInUseOr, ensureAddressFree } from './listen-address';

describe('ensureAddressFree', () => {
  let taken: Server;
  let port: number;
  beforeAll(async () => {
    taken = createServer();
    await new Promise<void>((resolve) => taken.listen({ port: 0, host: '127.0.0.1' }, resolve));
    port = (taken.address() as { port: number }).port;
  });
  afterAll(() => new Promise((resolve) => taken.close(resolve)));

  describe('when another process listens on the address', () => {
    it('refuses, naming the address and the variable that moves it', async () => {
      const refusal = ensureAddressFree({ host: '127.0.0.1', port });
      await expect(refusal).rejects.toBeInstanceOf(AddressInUse);
      await expect(refusal).rejects.toThrow(`127.0.0.1:${port} is already in use`);
      await expect(refusal).rejects.toThrow('set PORT (and HOST) to a free address');
    });
  });

  describe('when the address is free', () => {
    it('resolves and leaves it free for the api', async () => {
      const free = createServer();
      await new Promise<void>((resolve) => free.listen({ port: 0, host: '127.0.0.1' }, resolve));
      const freePort = (free.address() as { port: number }).port;
      await new Promise((resolve) => free.close(resolve));

      await expect(ensureAddressFree({ host: '127.0.0.1', port: freePort })).resolves.toBeUndefined();
      await expect(ensureAddressFree({ host: '127.0.0.1', port: freePort })).resolves.toBeUndefined();
    });
  });

  it('takes port 0 (any free port) as free without binding', async () => {
    await expect(ensureAddressFree({ host: '127.0.0.1', port: 0 })).resolves.toBeUndefined();
  });
});

describe('addressInUseOr', () => {
  it('turns an EADDRINUSE listen error into AddressInUse and leaves any other error as it is', () => {
    const address = { host: '0.0.0.0', port: 3000 };
    expect(addressInUseOr(Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE' }), address)).toEqual(
      new AddressInUse(address),
    );
    const other = Object.assign(new Error('listen EACCES'), { code: 'EACCES' });
    expect(addressInUseOr(other, address)).toBe(other);
  });
});
