import { IsIn, IsString, MaxLength, MinLength } from 'class-validator';
import { StorableText } from '../../../src/errors/storable-text';

export class ResolveReviewBody {
  @IsIn(['paid', 'failed'], { message: 'resolution must be "paid" or "failed"' })
  resolution!: 'paid' | 'failed';

  @IsString()
  @MinLength(3, { message: 'note must explain the decision (at least 3 characters)' })
  @MaxLength(2000)
  @StorableText()
  note!: string;
}
