import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { bigintAsNumber } from '../../src/subscriptions/read-models/column-transformers';

export type MovementKind = 'charge';

/**
 * One row per money movement at the provider, keyed by the provider's reference so the same
 * movement reported twice (a recovered outcome and a webhook) is still one row, while two different
 * intents for one order show up as two rows (a double charge is visible, never hidden).
 */
@Entity({ name: 'payment_ledger' })
@Index(['providerReference'])
@Index(['recordedAt'])
export class PaymentLedgerRow {
  @PrimaryColumn({ name: 'order_id', type: 'text' })
  orderId!: string;

  /** The PaymentIntent id: the provider's identity of the movement. */
  @PrimaryColumn({ name: 'payment_intent_id', type: 'text' })
  paymentIntentId!: string;

  @Column({ name: 'kind', type: 'text' })
  kind!: MovementKind;

  /** Signed minor units from the merchant's side: + money received (charge), − money returned (refunds, when they exist). */
  @Column({ name: 'amount', type: 'bigint', transformer: bigintAsNumber })
  amount!: number;

  @Column({ name: 'currency', type: 'text' })
  currency!: string;

  /** What support searches by: the provider's charge id when known, else the intent id. */
  @Column({ name: 'provider_reference', type: 'text' })
  providerReference!: string;

  /** True when the movement was found by verification (after an unknown outcome or a crash). */
  @Column({ name: 'recovered', type: 'boolean' })
  recovered!: boolean;

  @Column({ name: 'event_id', type: 'text' })
  eventId!: string;

  @Column({ name: 'revision', type: 'bigint', transformer: bigintAsNumber })
  revision!: number;

  @Column({ name: 'recorded_at', type: 'timestamptz' })
  recordedAt!: Date;
}
