import type { AnyReadModel } from '../../subscriptions/read-models/read-model';

/** Resolves names given on the command line; no names (or `all`) means every read model. */
export function selectReadModels(all: AnyReadModel[], names: string[]): AnyReadModel[] {
  if (!names.length || (names.length === 1 && names[0] === 'all')) return all;
  return names.map((name) => {
    const model = all.find((m) => m.name === name);
    if (!model) throw new Error(`unknown read model "${name}" (known: ${all.map((m) => m.name).join(', ')})`);
    return model;
  });
}
