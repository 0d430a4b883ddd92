import { idemFeatures } from '../../src/app.module';
import { loadConfig } from '../../src/config/config';
import { projectionLanesOf, reactorsOf, readModelsOf } from '../../src/features/feature';
import type { Projection } from '../../src/subscriptions/projection';
import { PROJECTION_LANES, READ_MODELS, REACTORS } from './projection-catalogue';

describe('the projection catalogue of the tests', () => {
  it('lists the read models and reactors the features declare, in their order', () => {
    const features = idemFeatures();
    expect(READ_MODELS).toEqual(readModelsOf(features));
    // Reactors are built by factories (the audit chain's takes its seal interval, the alerts' the
    // configuration): the same ones, by name, kind and filter.
    const identity = ({ name, kind, filter }: Projection) => ({ name, kind, filter });
    expect(REACTORS.map(identity)).toEqual(reactorsOf(features, loadConfig({})).map(identity));
  });

  it('puts them in the lanes the features name', () => {
    expect(PROJECTION_LANES).toEqual(projectionLanesOf(idemFeatures(), loadConfig({})));
  });
});
