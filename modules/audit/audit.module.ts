import { Module } from '@nestjs/common';
import { AuditEventsController } from './read-history/audit-events.controller';
import { AuditVerifyController } from './verify-history/audit-verify.controller';

/** The auditors' api: the global history with its chain hashes, and verification of the chain. */
@Module({ controllers: [AuditEventsController, AuditVerifyController] })
export class AuditModule {}
