import { idemFeatures } from '../../src/app.module';
import { loadConfig } from '../../src/config/config';
import { reactorsOf, readModelsOf } from '../../src/features/feature';
import { READ_MODELS, REACTORS } from './projection-catalogue';

describe('the projection catalogue of the tests', () => {
  it('lists the read models and reactors the features declare, in their order', () => {
    const features = idemFeatures();
    expect(READ_MODELS).toEqual(readModelsOf(features));
    expect(REACTORS).toEqual(reactorsOf(features, loadConfig({})));
  });
});
