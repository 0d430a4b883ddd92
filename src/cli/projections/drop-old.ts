/** `idem projections drop-old <name…>`: drops the tables of the versions a rebuild retired. */
import { dropOldVersions } from '../../subscriptions/read-models/versions';
import { println, type CliContext } from '../cli-context';
import { selectReadModels } from './select-read-models';

export async function projectionsDropOld(context: CliContext, names: string[]): Promise<void> {
  const { pool } = await context.runtime();
  for (const model of selectReadModels(context.readModels, names)) {
    const dropped = await dropOldVersions(pool, model);
    println(
      context.stdout,
      dropped.length
        ? `${model.name}: dropped ${dropped.map((v) => `${model.name}_v${v}`).join(', ')}`
        : `${model.name}: no retired version`,
    );
  }
}
