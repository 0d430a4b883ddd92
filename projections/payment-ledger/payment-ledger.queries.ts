import type { DataSource } from 'typeorm';
import { PaymentLedgerRow } from './payment-ledger.entity';

export class PaymentLedgerQueries {
  constructor(private readonly dataSource: DataSource) {}

  /** Every movement of one order, oldest first: more than one charge is a double charge. */
  movementsOfOrder(orderId: string): Promise<PaymentLedgerRow[]> {
    return this.dataSource.getRepository(PaymentLedgerRow).find({ where: { orderId }, order: { recordedAt: 'ASC' } });
  }

  findByProviderReference(reference: string): Promise<PaymentLedgerRow[]> {
    return this.dataSource
      .getRepository(PaymentLedgerRow)
      .find({ where: [{ providerReference: reference }, { paymentIntentId: reference }] });
  }
}
