import { ProjectionCheckpoints1764417600000 } from './1764417600000-projection-checkpoints';

/** In order; never edit a shipped migration, add the next one. */
export const READ_MODEL_MIGRATIONS = [ProjectionCheckpoints1764417600000];
