import { AppError } from '../../src/errors/app-error';
import { assertKnownSource, sourceNotAString } from './contact-sources';

describe('sourceNotAString', () => {
  it.each([[undefined], [null]])('names a missing source (%s) with the sources there are', (source) => {
    expect(sourceNotAString(source)).toEqual({ field: 'source', message: 'source is required: the name of a contact source (crm)' });
  });

  it('says a source of another type must be a string', () => {
    expect(sourceNotAString(42)).toEqual({ field: 'source', message: 'source must be a string' });
  });
});

describe('assertKnownSource', () => {
  const refusal = (source: string) => {
    try {
      assertKnownSource(source);
    } catch (error) {
      expect(error).toMatchObject({ kind: 'unprocessable', code: 'CONTACTS.UNKNOWN_SOURCE', details: { source } });
      return (error as AppError).message;
    }
    throw new Error(`${source} was taken`);
  };

  it('refuses an unknown source by its name, with the sources there are', () => {
    expect(refusal('foo')).toBe('No contact source is configured under the name foo (sources: crm)');
  });

  it('refuses an empty name as such, not as a sentence cut short', () => {
    expect(refusal('')).toBe('No contact source is configured under an empty name (sources: crm)');
  });

  it('takes a known source', () => {
    expect(() => assertKnownSource('crm')).not.toThrow();
  });
});
