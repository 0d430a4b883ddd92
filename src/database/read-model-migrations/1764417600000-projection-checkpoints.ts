import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The projection registry. Read-model tables themselves are not created here: each read-model
 * version gets its own tables (`orders_v1`, `orders_v2`, …) from the read model's current entity when
 * that version is installed or rebuilt, and readers use a view (`orders`) that a switch repoints.
 * See src/subscriptions/read-models/versions.ts.
 */
export class ProjectionCheckpoints1764417600000 implements MigrationInterface {
  name = 'ProjectionCheckpoints1764417600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE projection_checkpoints (
        name             text        NOT NULL,
        version          integer     NOT NULL CHECK (version >= 1),
        kind             text        NOT NULL CHECK (kind IN ('read_model', 'reactor')),
        state            text        NOT NULL CHECK (state IN ('building', 'live', 'retired', 'dropped')),
        checkpoint       text,
        events_processed bigint      NOT NULL DEFAULT 0,
        last_event_at    timestamptz,
        created_at       timestamptz NOT NULL DEFAULT now(),
        updated_at       timestamptz NOT NULL DEFAULT now(),
        switched_at      timestamptz,
        PRIMARY KEY (name, version)
      )`);
    // At most one serving and one building version per projection, whatever the callers do.
    await queryRunner.query(`CREATE UNIQUE INDEX projection_checkpoints_one_live ON projection_checkpoints (name) WHERE state = 'live'`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX projection_checkpoints_one_building ON projection_checkpoints (name) WHERE state = 'building'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE projection_checkpoints');
  }
}
