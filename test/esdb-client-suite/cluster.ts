/**
 * Stands in for the client suite's Docker-based `Cluster` (`packages/test/src/utils/Cluster.ts` of
 * EventStore-Client-NodeJS v6.2.1) with the same public surface, backed by the emulator: one node or an
 * emulated cluster, TLS with a generated CA unless insecure, admin/changeit accepted as a server does.
 */
import { readFileSync as readFile, rmSync } from 'node:fs';
import type { Certificate, EndPoint } from '@eventstore/db-client';
import { startEsdbEmulator, type EsdbEmulator, type EsdbEmulatorOptions, type TlsMaterial } from '../esdb-emulator';
import { startEsdbCluster, type EsdbCluster } from '../esdb-emulator/cluster';
import { generateTlsMaterial } from '../esdb-emulator/tls';

/** Server options (`EVENTSTORE_*` environment variables) the suite sets, as emulator settings. */
const OPTIONS: Record<string, (value: unknown) => Partial<EsdbEmulatorOptions>> = {
  EVENTSTORE_MAX_APPEND_SIZE: (value) => ({ maxAppendSize: Number(value) }),
  EVENTSTORE_COMMIT_TIMEOUT_MS: (value) => ({ writeTimeoutMs: Number(value) }),
  EVENTSTORE_PREPARE_TIMEOUT_MS: (value) => ({ writeTimeoutMs: Number(value) }),
};

export class Cluster {
  public domain = '127.0.0.1';
  private readonly options: EsdbEmulatorOptions = {};
  private tls?: TlsMaterial;
  private single?: EsdbEmulator;
  private cluster?: EsdbCluster;

  constructor(
    private readonly count: number,
    private readonly insecure = false,
  ) {}

  public setLogLevel = (): this => this;

  public setOption = (key: string, value: unknown): this => {
    const option = OPTIONS[key];
    if (!option) throw new Error(`The emulator has no equivalent of server option ${key}`);
    Object.assign(this.options, option(value));
    return this;
  };

  public get certs(): { root: Buffer; users: { admin: Certificate; invalid: Certificate } } {
    const tls = this.material();
    const read = (user: 'admin' | 'invalid') => ({
      userCertFile: readFile(tls.users[user].certFile),
      userKeyFile: readFile(tls.users[user].keyFile),
    });
    return { root: tls.ca, users: { admin: read('admin'), invalid: read('invalid') } };
  }

  public get certPath() {
    const tls = this.material();
    return {
      root: tls.caFile,
      admin: { certPath: tls.users.admin.certFile, certKeyPath: tls.users.admin.keyFile },
      invalid: { certPath: tls.users.invalid.certFile, certKeyPath: tls.users.invalid.keyFile },
    };
  }

  public get uri(): string {
    return `${this.domain}:${this.nodes[0].port}`;
  }

  public get endpoints(): EndPoint[] {
    return this.nodes.map(({ port }) => ({ address: this.domain, port }));
  }

  public up = async (): Promise<void> => {
    if (!this.insecure) this.tls ??= generateTlsMaterial();
    const options = { ...this.options, tls: this.tls };
    if (this.count === 1) this.single = await startEsdbEmulator(options);
    else this.cluster = await startEsdbCluster(options, this.count);
  };

  public down = async (): Promise<void> => {
    await this.single?.close();
    await this.cluster?.close();
    // The certificates were made for this cluster alone (tls.ts writes them to a fresh temp folder):
    // left behind, every TLS run of the suite would add a folder of keys to /tmp.
    if (this.tls) rmSync(this.tls.dir, { recursive: true, force: true });
    this.tls = undefined;
  };

  public killNode = async (endpoint: EndPoint): Promise<void> => {
    const index = this.nodes.findIndex(({ port }) => port === endpoint.port);
    if (index < 0) throw new Error(`unknown node ${endpoint.address}:${endpoint.port}`);
    if (this.cluster) await this.cluster.kill(index);
    else await this.nodes[index].stop();
  };

  public resurrect = async (): Promise<void> => {
    if (this.cluster) await this.cluster.revive();
    else await Promise.all(this.nodes.map((node) => node.start()));
  };

  public enableNodeLogs = async (): Promise<void> => undefined;
  public inspect = async (): Promise<void> => undefined;
  public openInBrowser = async (): Promise<void> => undefined;

  private get nodes(): EsdbEmulator[] {
    const nodes = this.single ? [this.single] : this.cluster?.nodes;
    if (!nodes) throw new Error('Cluster is not up');
    return nodes;
  }

  private material(): TlsMaterial {
    if (this.insecure) throw new Error('No Cert for insecure cluster');
    this.tls ??= generateTlsMaterial();
    return this.tls;
  }
}
