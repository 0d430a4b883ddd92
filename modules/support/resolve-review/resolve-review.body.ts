import { IsDefined, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateBy, type ValidationOptions } from 'class-validator';
import { StorableText } from '../../../src/errors/storable-text';

/**
 * Each problem is told once: a missing field by its @IsDefined, with what it must hold, and a note that
 * is no string by @IsString — not also by every length rule, which such a note fails alike and which
 * told a caller who sent no note that it "must be shorter than or equal to 2000 characters".
 */
const ifGiven: ValidationOptions = { validateIf: (_body: object, value: unknown) => value !== undefined && value !== null };
const ifText: ValidationOptions = { validateIf: (_body: object, value: unknown) => typeof value === 'string' };

/**
 * A note explains the decision to whoever reads the order's history later: three spaces or a blank line
 * explain nothing, so only characters other than white space count towards its minimum. The rule keeps
 * class-validator's name and constraint for a minimum length, so the OpenAPI document (read from these
 * rules, src/openapi/validated-bodies.ts) still states `minLength: 3`.
 */
const MIN_NOTE_CHARACTERS = 3;
const ExplainsDecision = (options: ValidationOptions): PropertyDecorator =>
  ValidateBy(
    {
      name: 'minLength',
      constraints: [MIN_NOTE_CHARACTERS],
      validator: { validate: (value: unknown) => String(value).replace(/\s/g, '').length >= MIN_NOTE_CHARACTERS },
    },
    options,
  );

export class ResolveReviewBody {
  @IsDefined({ message: 'resolution is required: "paid" or "failed"' })
  @IsIn(['paid', 'failed'], { ...ifGiven, message: 'resolution must be "paid" or "failed"' })
  resolution!: 'paid' | 'failed';

  @IsDefined({ message: 'note is required: what was decided and why, in 3 to 2000 characters' })
  @IsString(ifGiven)
  @ExplainsDecision({ ...ifText, message: `note must explain the decision (at least ${MIN_NOTE_CHARACTERS} characters besides spaces)` })
  @MaxLength(2000, { ...ifText, message: 'note must be at most 2000 characters' })
  @StorableText()
  note!: string;

  /**
   * With "paid": the amount (minor units, the order's currency) support accepts when the provider's
   * payment is not the amount ordered; it must be that payment's amount. Without it such a payment is
   * refused with 422 ORDER.PAYMENT_AMOUNT_MISMATCH, naming both amounts.
   */
  @IsOptional()
  @IsInt({ message: 'acceptedAmount must be an integer amount in minor units' })
  @Min(1, { message: 'acceptedAmount must be at least 1' })
  @Max(999_999_999_999, { message: 'acceptedAmount must be at most 999999999999' })
  acceptedAmount?: number;
}
