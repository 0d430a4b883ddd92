/**
 * Every read model and reactor of Idem, collected from the features as the composition roots do, for
 * tests and benchmarks that run projections without the whole service.
 */
import { idemFeatures } from '../../src/app.module';
import { reactorsOf, readModelsOf } from '../../src/features/feature';

const FEATURES = idemFeatures();

export const READ_MODELS = readModelsOf(FEATURES);
export const REACTORS = reactorsOf(FEATURES);
export const READ_MODEL_ENTITIES = READ_MODELS.map((model) => model.entity);
