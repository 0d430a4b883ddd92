/**
 * What support is told about a resolve body it got wrong: a missing field is named with what it must
 * hold, once — not as a list of length and type rules that a field never sent fails alike.
 */
import { createValidationPipe } from '../../../src/errors/validation-pipe';
import { AppError } from '../../../src/errors/app-error';
import { ResolveReviewBody } from './resolve-review.body';

async function problemsOf(body: unknown) {
  const error: unknown = await createValidationPipe()
    .transform(body, { type: 'body', metatype: ResolveReviewBody })
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  expect(error).toBeInstanceOf(AppError);
  expect(error).toMatchObject({ kind: 'validation', code: 'REQUEST.INVALID' });
  return (error as AppError).details.errors;
}

const RESOLUTION_REQUIRED = { field: 'resolution', message: 'resolution is required: "paid" or "failed"' };
const NOTE_REQUIRED = { field: 'note', message: 'note is required: what was decided and why, in 3 to 2000 characters' };

describe('ResolveReviewBody', () => {
  it('names both missing fields and what each must hold when the body is empty', async () => {
    expect(await problemsOf({})).toEqual([RESOLUTION_REQUIRED, NOTE_REQUIRED]);
  });

  it('counts a null field as missing', async () => {
    expect(await problemsOf({ resolution: null, note: null })).toEqual([RESOLUTION_REQUIRED, NOTE_REQUIRED]);
  });

  it('names the allowed resolutions for one that is not allowed, and the missing note', async () => {
    expect(await problemsOf({ resolution: 'maybe' })).toEqual([
      { field: 'resolution', message: 'resolution must be "paid" or "failed"' },
      NOTE_REQUIRED,
    ]);
  });

  it('says why a note that is there is refused', async () => {
    expect(await problemsOf({ resolution: 'paid', note: 'ok' })).toEqual([
      { field: 'note', message: 'note must explain the decision (at least 3 characters besides spaces)' },
    ]);
    expect(await problemsOf({ resolution: 'paid', note: ' \n\t ok ' })).toEqual([
      { field: 'note', message: 'note must explain the decision (at least 3 characters besides spaces)' },
    ]);
    expect(await problemsOf({ resolution: 'paid', note: 'x'.repeat(2001) })).toEqual([
      { field: 'note', message: 'note must be at most 2000 characters' },
    ]);
    expect(await problemsOf({ resolution: 'paid', note: 7 })).toEqual([{ field: 'note', message: 'note must be a string' }]);
  });

  it('says what an accepted amount must be', async () => {
    expect(await problemsOf({ resolution: 'paid', note: 'short payment accepted', acceptedAmount: '999' })).toEqual([
      { field: 'acceptedAmount', message: 'acceptedAmount must be an integer amount in minor units' },
    ]);
    expect(await problemsOf({ resolution: 'paid', note: 'short payment accepted', acceptedAmount: 0 })).toEqual([
      { field: 'acceptedAmount', message: 'acceptedAmount must be at least 1' },
    ]);
  });

  it('takes a resolution and a note', async () => {
    await expect(
      createValidationPipe().transform({ resolution: 'failed', note: 'card expired' }, { type: 'body', metatype: ResolveReviewBody }),
    ).resolves.toMatchObject({ resolution: 'failed', note: 'card expired' });
  });
});
