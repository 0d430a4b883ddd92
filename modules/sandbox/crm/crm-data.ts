/**
 * The sandbox CRM's contacts. This is Idem's own CRM fake, not a model of a vendor's API: nothing
 * here cites Stripe or any CRM, and no rule claims to be a real system's. Contact i of a CRM made
 * from (seed, size) is always the same record at the same version, so two runs (or a killed run and
 * its resume) see the same data; `mutate` moves some contacts to their next version, as edits in a
 * live CRM would between two pages of an export.
 */
import { seededRandom } from '../faults/seeded-random';

export interface CrmContact {
  sourceId: string;
  version: number;
  updatedAt: string;
  deleted?: boolean;
  fields?: Record<string, unknown>;
}

const EPOCH = Date.parse('2026-01-01T00:00:00Z');
const TIERS = ['standard', 'gold', 'platinum'];

export class CrmData {
  /** Versions above 1, by contact index. */
  private readonly bumps = new Map<number, number>();
  private readonly deletedAt = new Map<number, number>();
  private readonly random: () => number;

  constructor(
    readonly seed: number,
    readonly size: number,
  ) {
    this.random = seededRandom(seed ^ 0x5eed);
  }

  contact(index: number, version = this.versionOf(index)): CrmContact {
    const sourceId = `c${index}`;
    const updatedAt = new Date(EPOCH + index * 1000 + version * 86_400_000).toISOString();
    if (this.deletedAt.get(index) === version) return { sourceId, version, updatedAt, deleted: true };
    const pick = seededRandom(this.seed * 31 + index * 7 + version)();
    const fields = {
      name: `Contact ${index}`,
      email: `c${index}.v${version}@crm.example`,
      tier: TIERS[Math.floor(pick * TIERS.length)],
      version,
    };
    return { sourceId, version, updatedAt, fields };
  }

  versionOf(index: number): number {
    return 1 + (this.bumps.get(index) ?? 0);
  }

  /** Edits `count` seeded-random contacts (their next version); with `deletes`, some are deleted instead. */
  mutate(count: number, deletes = 0): string[] {
    const touched: string[] = [];
    for (let n = 0; n < count + deletes; n++) {
      const index = Math.floor(this.random() * this.size);
      this.bumps.set(index, (this.bumps.get(index) ?? 0) + 1);
      if (n >= count) this.deletedAt.set(index, this.versionOf(index));
      touched.push(`c${index}`);
    }
    return touched;
  }
}
