import { AppError } from '../../../src/errors/app-error';
import { InvalidAppend, StreamDeleted, WrongExpectedVersion } from '../../../src/event-store/errors';
import { isPermanent } from './run-drivers';

describe('an error a background driver meets', () => {
  it.each([
    ['a stream deleted for good', new StreamDeleted('contact-crm.7')],
    ['an event the store never takes', new InvalidAppend('EVENT_DATA', 'bad')],
    ['an append past the store limit', new InvalidAppend('EVENT_TOO_LARGE', 'too large')],
    ['a broken rule', new AppError('unprocessable', 'CONTACTS.SOMETHING', 'no')],
  ])('is permanent when it is %s: the run stops for review', (_, error) => {
    expect(isPermanent(error)).toBe(true);
  });

  it.each([
    ['a lost connection', new Error('Connection terminated unexpectedly')],
    ['a store that did not answer', new AppError('unavailable', 'EVENT_STORE.UNAVAILABLE', 'timeout')],
    ['a concurrent writer', new WrongExpectedVersion('import-r1', 3, 4)],
    ['something not an Error', 'boom'],
  ])('may pass when it is %s: the run is driven again', (_, error) => {
    expect(isPermanent(error)).toBe(false);
  });
});
