import { CALM_CRM, parseCrmBehaviour } from './crm-behaviour';

describe('parseCrmBehaviour', () => {
  it('switches off every setting the body leaves out', () => {
    expect(parseCrmBehaviour({})).toEqual(CALM_CRM);
    expect(parseCrmBehaviour(undefined)).toEqual(CALM_CRM);
    expect(parseCrmBehaviour({ outOfOrderPages: true, mutatePerPage: 5 })).toEqual({
      ...CALM_CRM,
      outOfOrderPages: true,
      mutatePerPage: 5,
    });
  });

  it.each([
    [{ duplicates: 'yes' }, 'duplicates must be a boolean'],
    [{ outOfOrderPages: 1 }, 'outOfOrderPages must be a boolean'],
    [{ mutatePerPage: -1 }, 'mutatePerPage must be an integer in 0..10000'],
    [{ deletesPerPage: 1.5 }, 'deletesPerPage must be an integer in 0..10000'],
    [{ mutatePerPage: 10_001 }, 'mutatePerPage must be an integer in 0..10000'],
  ])('refuses %j', (body, error) => {
    expect(parseCrmBehaviour(body)).toBe(error);
  });
});
