/**
 * Stripe's documented test PaymentMethods for cards, and what confirming a payment with each does here.
 * Source: https://docs.stripe.com/testing (the "PaymentMethods" tab of each table; section named above
 * each group). Only these ids exist in test mode: any other `pm_card_…` is refused as Stripe refuses an
 * id it does not hold (400 `resource_missing`, unknown-payment-method.ts).
 *
 * The sandbox sends no CVC, postal code or address, has no Radar settings beyond Stripe's defaults, and
 * models neither disputes, refunds nor SetupIntents: a card whose documented effect needs one of those
 * is charged as it is then — it succeeds (a dispute or a failed refund comes after a successful charge).
 */
export type DeclineErrorCode = 'card_declined' | 'expired_card' | 'incorrect_cvc' | 'processing_error';

export type TestCardBehaviour =
  | { kind: 'succeeds' }
  | { kind: 'declines'; code: DeclineErrorCode; declineCode: string }
  /** 3-D Secure on every payment: on-session the customer is asked, off-session it cannot be done. */
  | { kind: 'authenticates' }
  /** Set up for off-session payments: those succeed; an on-session payment asks for 3-D Secure. */
  | { kind: 'authenticates_on_session' };

const SUCCEEDS: TestCardBehaviour = { kind: 'succeeds' };
const AUTHENTICATES: TestCardBehaviour = { kind: 'authenticates' };
const declines = (declineCode: string, code: DeclineErrorCode = 'card_declined'): TestCardBehaviour => ({
  kind: 'declines',
  code,
  declineCode,
});
const all = (ids: string[], behaviour: TestCardBehaviour) => ids.map((id) => [id, behaviour] as const);

/** "Cards by brand" (with its co-branded cards) and "Cards by country": all succeed. */
const BY_BRAND = [
  'visa',
  'visa_debit',
  'mastercard',
  'mastercard_debit',
  'mastercard_prepaid',
  'amex',
  'discover',
  'diners',
  'jcb',
  'unionpay',
];
const CO_BRANDED = [
  'visa_cartesBancaires',
  'mastercard_cartesBancaires',
  'visa_debit_eftposAuCoBranded',
  'mastercard_debit_eftposAuCoBranded',
];
const BY_COUNTRY = [
  ...['us', 'ar', 'br', 'ca', 'cl', 'co', 'cr', 'ec', 'mx', 'pa', 'py', 'pe', 'uy'],
  ...['ae', 'ae_mastercard', 'at', 'be', 'bg', 'by', 'hr', 'cy', 'cz', 'dk', 'ee', 'fi', 'fr', 'de', 'gi', 'gr', 'hu', 'ie', 'it'],
  ...['lv', 'li', 'lt', 'lu', 'mt', 'nl', 'no', 'pl', 'pt', 'ro', 'si', 'sk', 'es', 'se', 'ch', 'gb', 'gb_debit', 'gb_mastercard'],
  ...['au', 'cn', 'hk', 'in', 'jp', 'my', 'nz', 'sg', 'tw', 'th_credit', 'th_debit'],
];
/** "HSA and FSA cards" and "Available balance" (bypass the pending balance): succeed. */
const OTHER_SUCCESSES = [
  'debit_visaFsaProductCode',
  'debit_visaHsaProductCode',
  'mastercard_debit_mastercardFsaProductCode',
  'bypassPending',
  'bypassPendingInternational',
];
/**
 * "Fraud prevention": the check cards fail only a check of a field sent with the payment, and the
 * sandbox sends none; elevated risk and the setting-dependent cards pass Stripe's default Radar rules.
 * "Disputes" and "Refunds": the charge succeeds first.
 */
const SUCCEED_HERE = [
  ...['riskLevelElevated', 'highFraudDisputeScore', 'highEfwScore', 'radarDynamicRiskThreshold', 'freeTrialAbuseBlock'],
  ...['adaptive3dsChallenge', 'cvcCheckFail', 'avsZipFail', 'cvcCheckFailElevatedRisk', 'avsZipFailElevatedRisk'],
  ...['avsLine1Fail', 'avsFail', 'avsUnchecked'],
  ...['createDispute', 'createDisputeProductNotReceived', 'createDisputeInquiry', 'createIssuerFraudRecord', 'createMultipleDisputes'],
  ...['createCe3EligibleDispute', 'createComplianceDispute', 'createMastercardComplianceDispute'],
  ...['createAutoRepresentmentEligibleDispute', 'pendingRefund', 'refundFail'],
  // "3D Secure support and availability": supported but not required, or not supported: no challenge.
  ...['threeDSecureOptional', 'amex_threeDSecureNotSupported'],
];

const ENTRIES: Array<readonly [string, TestCardBehaviour]> = [
  ...all([...BY_BRAND, ...CO_BRANDED, ...BY_COUNTRY, ...OTHER_SUCCESSES, ...SUCCEED_HERE], SUCCEEDS),
  // "Declined payments": the error code, and for card_declined its decline code, as the table gives them.
  ['visa_chargeDeclined', declines('generic_decline')],
  ['visa_chargeDeclinedInsufficientFunds', declines('insufficient_funds')],
  ['visa_chargeDeclinedLostCard', declines('lost_card')],
  ['visa_chargeDeclinedStolenCard', declines('stolen_card')],
  ['chargeDeclinedExpiredCard', declines('expired_card', 'expired_card')],
  ['chargeDeclinedIncorrectCvc', declines('incorrect_cvc', 'incorrect_cvc')],
  ['chargeDeclinedProcessingError', declines('processing_error', 'processing_error')],
  ['visa_chargeDeclinedVelocityLimitExceeded', declines('card_velocity_exceeded')],
  // "Attaching this card to a Customer object succeeds, but attempts to charge the customer fail."
  ['chargeCustomerFail', declines('generic_decline')],
  // The same cards without `visa_`: not in the page's current tables, whose Token column still names
  // them (`tok_chargeDeclined*`); Idem's specs and docs use them, as integrations long have.
  ['chargeDeclined', declines('generic_decline')],
  ['chargeDeclinedInsufficientFunds', declines('insufficient_funds')],
  ['chargeDeclinedLostCard', declines('lost_card')],
  ['chargeDeclinedStolenCard', declines('stolen_card')],
  ['chargeDeclinedFraudulent', declines('fraudulent')], // 4100 0000 0000 0019, today's radarBlock card
  // "Fraud prevention": always blocked, and highest risk, which Stripe's default rules block.
  ['radarBlock', declines('fraudulent')],
  ['riskLevelHighest', declines('fraudulent')],
  // "Authentication and setup" and "3D Secure support and availability" (3DS required). No card is
  // ever set up here (no SetupIntents), so "authenticate unless set up" always authenticates.
  ['authenticationRequired', AUTHENTICATES], // 4000 0027 6000 3184
  ['authenticationRequiredOnSetup', AUTHENTICATES], // 4000 0025 0000 3155
  ['authenticationRequiredChargeDeclinedInsufficientFunds', AUTHENTICATES], // 4000 0082 6000 3178
  ['authenticationRequiredSetupForOffSession', { kind: 'authenticates_on_session' }], // 4000 0038 0000 0446
  ['threeDSecure2Required', AUTHENTICATES], // 4000 0000 0000 3220
  ['threeDSecureRequiredChargeDeclined', AUTHENTICATES], // 4000 0084 0000 1629
  ['threeDSecureRequired', AUTHENTICATES], // 4000 0000 0000 3063, from earlier editions of the page
];
const CARDS = new Map(ENTRIES.map(([name, behaviour]) => [`pm_card_${name}`, behaviour]));

/** What a payment with one of Stripe's test cards does, or undefined if Stripe has no such test card. */
export function stripeTestCard(id: string): TestCardBehaviour | undefined {
  return CARDS.get(id);
}

/** The test cards that ask for 3-D Secure on every payment. */
export const AUTHENTICATION_PAYMENT_METHODS: ReadonlySet<string> = new Set(
  [...CARDS].filter(([, behaviour]) => behaviour.kind === 'authenticates').map(([id]) => id),
);
