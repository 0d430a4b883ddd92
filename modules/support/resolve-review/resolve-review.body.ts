import { IsDefined, IsIn, IsString, MaxLength, MinLength, type ValidationOptions } from 'class-validator';
import { StorableText } from '../../../src/errors/storable-text';

/**
 * Each problem is told once: a missing field by its @IsDefined, with what it must hold, and a note that
 * is no string by @IsString — not also by every length rule, which such a note fails alike and which
 * told a caller who sent no note that it "must be shorter than or equal to 2000 characters".
 */
const ifGiven: ValidationOptions = { validateIf: (_body: object, value: unknown) => value !== undefined && value !== null };
const ifText: ValidationOptions = { validateIf: (_body: object, value: unknown) => typeof value === 'string' };

export class ResolveReviewBody {
  @IsDefined({ message: 'resolution is required: "paid" or "failed"' })
  @IsIn(['paid', 'failed'], { ...ifGiven, message: 'resolution must be "paid" or "failed"' })
  resolution!: 'paid' | 'failed';

  @IsDefined({ message: 'note is required: what was decided and why, in 3 to 2000 characters' })
  @IsString(ifGiven)
  @MinLength(3, { ...ifText, message: 'note must explain the decision (at least 3 characters)' })
  @MaxLength(2000, { ...ifText, message: 'note must be at most 2000 characters' })
  @StorableText()
  note!: string;
}
