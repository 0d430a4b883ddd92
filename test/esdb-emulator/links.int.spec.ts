/** `resolveLinkTos` on `$>` link events, as resolve-links.ts follows `StorageReaderWorker.ResolveLinkToEvent`. */
import { binaryEvent } from '@eventstore/db-client';
import { connectedEmulator, event, streamName } from './fidelity-helpers';

describe('link events ($>)', () => {
  const esdb = connectedEmulator();
  const link = (target: string) => binaryEvent({ type: '$>', data: Buffer.from(target) });

  async function readLinks(stream: string, resolveLinkTos: boolean) {
    const read = [];
    for await (const resolved of esdb.client.readStream(stream, { resolveLinkTos })) read.push(resolved);
    return read;
  }

  it('with resolveLinkTos, answers the target as event and the link as link; without, the link as event', async () => {
    const target = streamName();
    const links = streamName('links');
    const original = event();
    await esdb.client.appendToStream(target, [event(), original]);
    await esdb.client.appendToStream(links, link(`1@${target}`));
    const [resolved] = await readLinks(links, true);
    expect(resolved.event).toMatchObject({ id: original.id, streamId: target, revision: 1n });
    expect(resolved.link).toMatchObject({ type: '$>', streamId: links, revision: 0n });
    const [plain] = await readLinks(links, false);
    expect(plain.event).toMatchObject({ type: '$>', streamId: links });
    expect(plain.link).toBeUndefined();
  });

  it('leaves only the link when the target cannot be read, and a payload without a number unresolved', async () => {
    const links = streamName('links');
    await esdb.client.appendToStream(links, [link(`0@${streamName('never-written')}`), link('not-a-link')]);
    const [missing, malformed] = await readLinks(links, true);
    expect(missing.event).toBeUndefined();
    expect(missing.link).toMatchObject({ type: '$>', revision: 0n });
    expect(malformed.event).toMatchObject({ type: '$>', revision: 1n });
    expect(malformed.link).toBeUndefined();
  });

  it('leaves only the link when the target stream is tombstoned', async () => {
    const target = streamName();
    const links = streamName('links');
    await esdb.client.appendToStream(target, [event(), event()]);
    await esdb.client.appendToStream(links, link(`1@${target}`));
    await esdb.client.tombstoneStream(target);
    const [resolved] = await readLinks(links, true);
    expect(resolved.event).toBeUndefined();
    expect(resolved.link).toMatchObject({ type: '$>', revision: 0n });
  });

  it("reads -1 as the target's last event; fails a number without a stream; leaves a number beyond a long unresolved", async () => {
    const target = streamName();
    const links = streamName('links');
    const last = event();
    await esdb.client.appendToStream(target, [event(), last]);
    await esdb.client.appendToStream(links, [link(`-1@${target}`), link('1'), link(`9223372036854775808@${target}`)]);
    const [lastOne, noStream, tooBig] = await readLinks(links, true);
    expect(lastOne.event).toMatchObject({ id: last.id, revision: 1n });
    expect(lastOne.link).toMatchObject({ revision: 0n });
    expect(noStream.event).toBeUndefined();
    expect(noStream.link).toMatchObject({ revision: 1n });
    expect(tooBig.event).toMatchObject({ type: '$>', revision: 2n });
    expect(tooBig.link).toBeUndefined();
  });

  it('resolves links on a subscription too', async () => {
    const target = streamName();
    const links = streamName('links');
    const original = event();
    await esdb.client.appendToStream(target, original);
    await esdb.client.appendToStream(links, link(`0@${target}`));
    const subscription = esdb.client.subscribeToStream(links, { resolveLinkTos: true });
    const first = (await subscription[Symbol.asyncIterator]().next()).value;
    await subscription.unsubscribe();
    expect(first.event).toMatchObject({ id: original.id });
    expect(first.link).toMatchObject({ type: '$>' });
  });

  it('fails a malformed link reaching a live subscription, which a read or a catch-up leaves unresolved', async () => {
    const links = streamName('links');
    await esdb.client.appendToStream(links, link('not-a-link'));
    const subscription = esdb.client.subscribeToStream(links, { resolveLinkTos: true });
    subscription.once('caughtUp', () => void esdb.client.appendToStream(links, link('not-a-link-either')));
    const delivered = [];
    for await (const resolved of subscription) if (delivered.push(resolved) === 2) break;
    await subscription.unsubscribe();
    const [caughtUp, live] = delivered;
    expect(caughtUp.event).toMatchObject({ type: '$>', revision: 0n });
    expect(caughtUp.link).toBeUndefined();
    expect(live.event).toBeUndefined();
    expect(live.link).toMatchObject({ type: '$>', revision: 1n });
  });
});
