/** What the figures were measured on: printed beside every benchmark result (DESIGN.md §10). */
import { readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { Client } from 'pg';

export interface MachineInfo {
  cores: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
  platform: string;
  loadAverage: number[];
}

export function machineInfo(): MachineInfo {
  return {
    cores: cpus().length,
    cpuModel: cpuModel(),
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    loadAverage: loadavg().map((value) => Math.round(value * 100) / 100),
  };
}

function cpuModel(): string {
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8')
      .split('\n')
      .find((entry) => entry.startsWith('model name'));
    if (line) return line.split(':')[1].trim();
  } catch {
    // not Linux
  }
  return cpus()[0]?.model ?? 'unknown';
}

export const KEY_SETTINGS = [
  'fsync',
  'synchronous_commit',
  'full_page_writes',
  'wal_sync_method',
  'shared_buffers',
  'max_connections',
  'commit_delay',
  'max_wal_size',
] as const;

export interface PostgresInfo {
  version: string;
  settings: Record<string, string>;
}

export async function postgresInfo(url: string): Promise<PostgresInfo> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const version = (await client.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0].v;
    const { rows } = await client.query<{ name: string; setting: string }>(
      `SELECT name, current_setting(name) AS setting FROM pg_settings WHERE name = ANY($1::text[])`,
      [KEY_SETTINGS],
    );
    const settings: Record<string, string> = {};
    for (const name of KEY_SETTINGS) settings[name] = rows.find((row) => row.name === name)?.setting ?? '?';
    return { version, settings };
  } finally {
    await client.end();
  }
}

export function describeMachine(machine: MachineInfo, postgres: PostgresInfo): string {
  const settings = Object.entries(postgres.settings)
    .map(([name, value]) => `${name}=${value}`)
    .join(', ');
  return [
    `machine: ${machine.cores} cores, ${machine.cpuModel}, ${machine.memoryGiB} GiB, ${machine.platform}, load ${machine.loadAverage.join(' ')}`,
    `node ${machine.node}; PostgreSQL ${postgres.version}: ${settings}`,
  ].join('\n');
}
