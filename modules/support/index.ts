/** Public surface of the support module. */
export { SupportModule } from './support.module';
