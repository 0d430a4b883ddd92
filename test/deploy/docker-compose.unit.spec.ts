/**
 * docker-compose.yml cannot be started on the development machines (no Docker engine), so its
 * structure is checked here: the services, pinned images, health-gated dependencies, and an Idem
 * environment that the real config loader accepts in production mode.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { loadConfig } from '../../src/config/config';
import { parseDuration } from '../../src/config/duration';
import { STOP_TIMING } from '../../src/bootstrap/stop-http-api';
import { publicDirectory } from '../../modules/support/admin-screen/admin-assets';

const root = join(__dirname, '..', '..');
const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<
    string,
    {
      image?: string;
      profiles?: string[];
      networks?: Record<string, { ipv4_address: string }>;
      build?: string;
      command?: string[];
      environment?: Record<string, string>;
      ports?: string[];
      depends_on?: Record<string, { condition: string }>;
      healthcheck?: unknown;
      stop_grace_period?: string;
      volumes?: string[];
    }
  >;
  volumes: Record<string, unknown>;
  networks: Record<string, { ipam: { config: Array<{ subnet: string }> } }>;
};
const { services } = compose;

/** The environment variables a source file reads: `read('NAME', …)` and `env.NAME` in the config loader, `process.env.NAME` elsewhere. */
const variablesReadBy = (file: string) =>
  new Set([...readFileSync(join(root, file), 'utf8').matchAll(/(?:\bread\('|\benv\.)([A-Z][A-Z0-9_]*)\b/g)].map((match) => match[1]));

/** Docker's `${VAR:-default}` with nothing set in the environment. */
const withDefaults = (env: Record<string, string>) =>
  Object.fromEntries(Object.entries(env).map(([key, value]) => [key, String(value).replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1')]));

describe('docker-compose.yml', () => {
  const byDefault = Object.keys(services).filter((name) => !services[name].profiles);
  const clusterNodes = ['eventstore-node1', 'eventstore-node2', 'eventstore-node3'];

  it('runs EventStoreDB, PostgreSQL 17+, the sandbox, the api and the worker', () => {
    expect(byDefault.sort()).toEqual(['api', 'eventstore', 'postgres', 'sandbox', 'worker']);
  });

  describe('the cluster profile', () => {
    it('has exactly three EventStoreDB nodes of the pinned image, only in that profile', () => {
      expect(
        Object.keys(services)
          .filter((name) => services[name].profiles)
          .sort(),
      ).toEqual(clusterNodes);
      for (const name of clusterNodes) {
        expect(services[name].profiles).toEqual(['cluster']);
        expect(services[name].image).toBe(services.eventstore.image);
        expect(services[name].healthcheck).toBeDefined();
      }
    });

    it('makes one cluster of three: each node seeds gossip with the two others at their fixed addresses', () => {
      const addressOf = (name: string) => services[name].networks!.cluster.ipv4_address;
      for (const name of clusterNodes) {
        const env = services[name].environment!;
        expect(env.EVENTSTORE_CLUSTER_SIZE).toBe('3');
        expect(env.EVENTSTORE_DISCOVER_VIA_DNS).toBe('false');
        expect(env.EVENTSTORE_REPLICATION_IP).toBe(addressOf(name));
        const others = clusterNodes.filter((other) => other !== name).map((other) => `${addressOf(other)}:2113`);
        expect(env.EVENTSTORE_GOSSIP_SEED.split(',').sort()).toEqual(others.sort());
        expect(addressOf(name).startsWith(compose.networks.cluster.ipam.config[0].subnet.replace(/0\/24$/, ''))).toBe(true);
      }
    });

    it('advertises each node to clients on its own host port', () => {
      for (const name of clusterNodes) {
        const port = services[name].environment!.EVENTSTORE_ADVERTISE_NODE_PORT_TO_CLIENT_AS;
        expect(services[name].ports).toEqual([`${port}:2113`]);
      }
    });
  });

  it('pins every image to a version (never latest)', () => {
    // The vendor's registry for the 24.10 line (docker-compose.yml cites where it says so).
    expect(services.eventstore.image).toMatch(/^docker\.eventstore\.com\/eventstore\/eventstoredb-ee:\d+\.\d+\.\d+$/);
  });

  it('pins an EventStoreDB server of 24.10.5 or later (24.10.0–24.10.4 send a bogus End checkpoint to filtered subscriptions)', () => {
    const [major, minor, patch] = /:(\d+)\.(\d+)\.(\d+)/.exec(services.eventstore.image!)!.slice(1).map(Number);
    expect(major * 1_000_000 + minor * 1_000 + patch).toBeGreaterThanOrEqual(24_010_005);
    expect(services.postgres.image).toMatch(/^postgres:(1[7-9]|[2-9]\d)(\.\d+)?$/);
  });

  it('builds Idem processes from the Dockerfile and points them at compiled entry points that exist', () => {
    expect(existsSync(join(root, 'Dockerfile'))).toBe(true);
    for (const name of ['api', 'worker', 'sandbox']) {
      expect(services[name].build).toBe('.');
      const entry = services[name].command![1].replace(/^dist\//, '').replace(/\.js$/, '.ts');
      expect(existsSync(join(root, entry))).toBe(true);
    }
  });

  it("ships the admin screen's files in the runtime image, where the compiled service looks for them", () => {
    const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
    const runtimeStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    const relative = publicDirectory(join(root, 'dist', 'modules', 'support', 'admin-screen')).slice(root.length + 1);
    expect(existsSync(join(root, relative, 'admin.html'))).toBe(true);
    expect(runtimeStage).toContain(`COPY --from=build /app/${relative} ./${relative}`);
  });

  it('starts the api and worker only after their dependencies are healthy, and checks health itself', () => {
    for (const name of ['api', 'worker']) {
      for (const dependency of ['postgres', 'eventstore'])
        expect(services[name].depends_on?.[dependency]).toEqual({ condition: 'service_healthy' });
    }
    for (const name of ['eventstore', 'postgres', 'sandbox', 'api']) expect(services[name].healthcheck).toBeDefined();
    expect(services.api.ports).toContain('3000:3000');
    expect(services.eventstore.ports).toContain('2113:2113');
    expect(Object.keys(compose.volumes).sort()).toEqual([
      'eventstore-data',
      'eventstore-node1-data',
      'eventstore-node2-data',
      'eventstore-node3-data',
      'postgres-data',
      'sandbox-data',
    ]);
  });

  it.each(['api', 'worker'])('gives the %s an environment the production config accepts, on EventStoreDB', (name) => {
    const config = loadConfig(withDefaults(services[name].environment!));
    expect(config.production).toBe(true);
    expect(config.eventStore).toMatchObject({ kind: 'esdb', esdbConnectionString: 'esdb://eventstore:2113?tls=false' });
    expect(config.databaseUrl).toContain('@postgres:5432/');
    expect(config.sandbox.enabled).toBe(false);
    expect(config.payments.stripeApiBase).toBe('http://sandbox:3100');
    expect(config.devTokens).toBe(false);
  });

  it.each([
    ['api', 'src/config/config.ts'],
    ['worker', 'src/config/config.ts'],
    ['sandbox', 'modules/sandbox/main.ts'],
  ])('names only environment variables the %s reads (%s): a misspelt one would be ignored silently', (name, reader) => {
    const read = variablesReadBy(reader);
    expect(read.size).toBeGreaterThan(3);
    const unread = Object.keys(services[name].environment!).filter((variable) => !read.has(variable));
    expect(unread).toEqual([]);
  });

  it('starts the worker without waiting for the api to be ready (readiness includes the projection lag only the worker clears)', () => {
    expect(services.worker.depends_on?.api?.condition ?? 'service_started').toBe('service_started');
  });

  it('sends the sandbox webhooks to the api, signed with the secret the api checks', () => {
    const sandbox = withDefaults(services.sandbox.environment!);
    expect(sandbox.IDEM_SANDBOX_WEBHOOK_URL).toBe('http://api:3000/v1/webhooks/payments');
    expect(sandbox.IDEM_SANDBOX_WEBHOOK_SECRET).toBe(withDefaults(services.api.environment!).IDEM_WEBHOOK_SECRET);
  });

  it("keeps the sandbox provider's state on a volume, as npm start keeps it under IDEM_DATA_DIR (a provider that forgot its charges would charge a replayed key again)", () => {
    const dataDir = withDefaults(services.sandbox.environment!).IDEM_SANDBOX_DATA_DIR;
    expect(dataDir).toMatch(/^\//);
    expect(services.sandbox.volumes).toContain(`sandbox-data:${dataDir}`);
    // A named volume takes the owner of the image's directory at its first mount: the image makes it the node user's.
    const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
    const runtimeStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    expect(runtimeStage).toMatch(new RegExp(`RUN mkdir -p ${dataDir} && chown node:node ${dataDir}\\n(.*\\n)*USER node`));
  });

  it("gives the api and the worker longer to stop than compose's 10 s default: the api's own stop takes up to 12 s, the worker's its running jobs", () => {
    const graceMs = (name: string) => parseDuration(services[name].stop_grace_period ?? '10s');
    expect(graceMs('api')).toBeGreaterThan(STOP_TIMING.forceAfterMs);
    // A charge job looks the customer's card up and then charges it, each call waiting up to the provider timeout.
    expect(graceMs('worker')).toBeGreaterThan(2 * loadConfig({}).payments.providerTimeoutMs);
  });
});
