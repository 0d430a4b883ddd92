/**
 * What a new server has written to its log before a client connects, so a fresh `$all` holds it
 * (KurrentDB v24.10.5):
 *
 * - `$epoch-information` in `$epoch-information`, JSON `EpochRecordDto` (`EpochManager.WriteEpochInformationWithRetry`,
 *   `TransactionLog/LogRecords/EpochRecord.cs`), written when the node becomes leader of epoch 0;
 * - on a secure node only (an insecure one runs the passthrough authentication provider, `ClusterVNode.cs`),
 *   `UserManagementService.CreateAdminUser` / `CreateOperationsUser`, for `admin` and then `ops`:
 *   the user stream's ACL (`WriteStreamAcl`: `$metadata` in `$$$user-<name>`, write/delete/metawrite
 *   `$admins`), `$UserCreated` in `$user-<name>` (`WriteUserEvent`, JSON user data) and `$User` in
 *   `$users` (`WriteUsersStreamEvent`, the login name as non-JSON data).
 *
 * Every type starts with `$`, so the client's `excludeSystemEvents` filter drops them. A restart of the
 * emulator keeps its log and writes nothing new (a server writes a new epoch then; nothing counts on it).
 * Projections, which the server runs only when asked (`RunProjections`), are not emulated, nor what they write.
 */
import { randomUUID } from 'node:crypto';
import type { EventLog, ProposedEvent } from './event-log';

const json = (value: unknown): Pick<ProposedEvent, 'contentType' | 'data'> => ({
  contentType: 'application/json',
  data: new TextEncoder().encode(JSON.stringify(value)),
});

function event(type: string, body: Pick<ProposedEvent, 'contentType' | 'data'>): ProposedEvent {
  return { id: randomUUID(), type, metadata: new Uint8Array(), ...body };
}

export function writeStartupEvents(log: EventLog, secure: boolean): void {
  log.append('$epoch-information', [
    event(
      '$epoch-information',
      json({
        epochPosition: 0,
        epochNumber: 0,
        epochId: randomUUID(),
        prevEpochPosition: -1,
        timeStamp: new Date().toISOString(),
        leaderInstanceId: randomUUID(),
      }),
    ),
  ]);
  if (!secure) return;
  const users = [
    { loginName: 'admin', fullName: 'Event Store Administrator', groups: ['$admins'] },
    { loginName: 'ops', fullName: 'Event Store Operations', groups: ['$ops'] },
  ];
  for (const user of users) {
    log.append(`$$$user-${user.loginName}`, [event('$metadata', json({ $acl: { $w: '$admins', $d: '$admins', $mw: '$admins' } }))]);
    log.append(`$user-${user.loginName}`, [
      event('$UserCreated', json({ ...user, salt: randomUUID(), hash: randomUUID(), disabled: false })),
    ]);
    log.append('$users', [event('$User', { contentType: 'application/octet-stream', data: new TextEncoder().encode(user.loginName) })]);
  }
}
