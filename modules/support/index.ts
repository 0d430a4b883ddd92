/** Public surface of the support module; `supportFeature` is what the composition roots plug in. */
export { supportFeature } from './support.feature';
