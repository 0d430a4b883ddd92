import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { bigintAsNumber } from '../../src/subscriptions/read-models/column-transformers';

export type OrderStatus = 'pending' | 'processing' | 'paid' | 'failed' | 'unknown' | 'needs_review';

/**
 * The payment state of one order, as GET /v1/orders/{orderId} shows it (DESIGN.md §6). Readers
 * query the view `orders`; the rows live in the live version's table (`orders_v<n>`).
 */
@Entity({ name: 'orders' })
@Index(['customerId'])
@Index(['paymentIntentId'], { where: 'payment_intent_id IS NOT NULL' })
// The recovery job's question: which orders are stuck in pending/processing/unknown since before T?
@Index(['status', 'updatedAt'])
export class OrderRow {
  @PrimaryColumn({ name: 'order_id', type: 'text' })
  orderId!: string;

  @Column({ name: 'status', type: 'text' })
  status!: OrderStatus;

  /** Minor units of `currency`. */
  @Column({ name: 'amount', type: 'bigint', transformer: bigintAsNumber })
  amount!: number;

  @Column({ name: 'currency', type: 'text' })
  currency!: string;

  @Column({ name: 'customer_id', type: 'text' })
  customerId!: string;

  @Column({ name: 'payment_intent_id', type: 'text', nullable: true })
  paymentIntentId!: string | null;

  @Column({ name: 'provider_charge_id', type: 'text', nullable: true })
  providerChargeId!: string | null;

  /** Charge attempts started for the current request (a new request after a failure starts again at 0). */
  @Column({ name: 'attempts', type: 'integer' })
  attempts!: number;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;

  @Column({ name: 'last_attempt_at', type: 'timestamptz', nullable: true })
  lastAttemptAt!: Date | null;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  /** Revision of the last `order-<orderId>` event reflected here. */
  @Column({ name: 'revision', type: 'bigint', transformer: bigintAsNumber })
  revision!: number;
}
