/**
 * `idem` takes Idem's features from their CliFeatures (src/cli.ts), not from idemFeatures(), which loads
 * their Nest modules and tasks: the two lists must name the same read models, reactors and migrations, in
 * the same order (the order `idem projections status` lists them in).
 */
import { CLI_FEATURES } from '../cli';
import { idemFeatures } from '../app.module';
import { loadConfig } from '../config/config';
import { reactorsOf, readModelsOf } from '../features/feature';

describe("idem's features", () => {
  it('have the cores of idemFeatures(): the same read models, reactors and migrations, in the same order', async () => {
    const cores = await Promise.all(CLI_FEATURES.map((feature) => feature.core()));
    const features = idemFeatures();
    const config = loadConfig({ IDEM_ALERT_WEBHOOK_URL: 'https://alerts.example/hook' });
    expect(cores.map((core) => core.name)).toEqual(features.map((feature) => feature.name));
    expect(readModelsOf(cores)).toEqual(readModelsOf(features));
    expect(reactorsOf(cores, config).map((reactor) => reactor.name)).toEqual(reactorsOf(features, config).map((reactor) => reactor.name));
    expect(cores.map((core) => core.migrate)).toEqual(features.map((feature) => feature.migrate));
  });
});
