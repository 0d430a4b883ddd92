import { IsDefined, IsIn, IsInt, IsOptional, IsString, Matches, MaxLength, Min, MinLength } from 'class-validator';
import { BUSINESS_KEY } from '../../../src/errors/business-key';
import { PlainBody } from '../../../src/errors/plain-body';
import { StorableText } from '../../../src/errors/storable-text';
import { ConfiguredSchema } from '../../../src/openapi/configured-schema';
import { AtMostStripeMaximum, InStripeAmountSteps } from './amount-step';
import { documentedAmount, documentedCurrency } from './documented-amount';
import { AtLeastMinimumCharge, minimumChargeMessage } from './minimum-charge';

/** ISO-4217 codes the runtime knows (ICU's list). */
export const KNOWN_CURRENCIES: readonly string[] = Intl.supportedValuesOf('currency');

/** Flat JSON (primitives only): validated by class-validator without a class-transformer pass. */
@PlainBody()
export class ChargeRequestBody {
  @IsDefined({ message: 'amount is required' })
  @IsInt({ message: "amount must be an integer (a JSON number) in the currency's minor unit, e.g. 1250 for 12.50 EUR" })
  @Min(1, { message: ({ object }) => minimumChargeMessage((object as Partial<ChargeRequestBody>).currency) })
  @AtLeastMinimumCharge()
  @InStripeAmountSteps()
  @AtMostStripeMaximum()
  @ConfiguredSchema((config) => documentedAmount(config.payments.currencies))
  amount!: number;

  @IsDefined({ message: 'currency is required' })
  @IsString()
  @IsIn(KNOWN_CURRENCIES, { message: 'currency must be an upper-case ISO-4217 code such as EUR' })
  // The controller refuses a known code the shop does not charge in: the document names only those.
  @ConfiguredSchema((config) => documentedCurrency(config.payments.currencies))
  currency!: string;

  @IsDefined({ message: 'customerId is required' })
  @IsString()
  @Matches(BUSINESS_KEY, { message: 'customerId must be 1–64 characters of A–Z, a–z, 0–9, _ . : -' })
  customerId!: string;

  /**
   * Left out for a charge without one; never "". Stripe reads an empty string as "unset this parameter",
   * and a PaymentIntent's `description` on create cannot be unset (spec3.json `PostPaymentIntents`:
   * `description` is a plain string, not one of the emptyable `anyOf: [string, enum [""]]` fields;
   * stripe-node's PaymentIntentCreateParams likewise types it `string`, not `Emptyable<string>`): Stripe
   * answers 400 `parameter_invalid_empty`. Accepted, "" would also be a different charge from "no
   * description" for the duplicate check, though the provider is sent neither.
   */
  @IsOptional()
  @IsString()
  @MinLength(1, { message: 'description must not be empty: leave it out for a charge without one (Stripe refuses an empty description)' })
  @MaxLength(500)
  @StorableText()
  description?: string;
}
