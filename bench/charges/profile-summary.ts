/**
 * Reads a V8 CPU profile (.cpuprofile, as written by trace-preload.js) and says where the service's
 * main thread spent its time: self time per area (a package, an Idem folder, Node internals, GC,
 * idle) and "inclusive" time (the share of samples whose stack passes through the area at all), plus
 * the hottest functions. Areas of Idem's own code are recognised by their path in the build.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  totalMs: number;
  /** ms of self time per area, largest first. */
  self: Array<[string, number]>;
  /** ms of samples whose stack contains the area, largest first. */
  inclusive: Array<[string, number]>;
  /**
   * Self time charged to the nearest package or Idem folder on the stack, so that Node internals and
   * native work (socket writes, parsing) count for whoever asked for them. Largest first.
   */
  owner: Array<[string, number]>;
  topFunctions: Array<[string, number]>;
}

export function areaOf(url: string, functionName: string): string {
  if (!url) {
    if (functionName === '(garbage collector)') return 'GC';
    if (functionName === '(idle)') return 'idle';
    if (functionName === '(program)') return 'V8/native (program)';
    return 'native';
  }
  // Idem's own compiled code (dist/ or the benchmark's build under node_modules/.cache).
  const own = /\/dist\/(src|modules|projections)\/([^/]+)/.exec(url);
  if (own) return `idem ${own[1]}/${own[2].replace(/\.js$/, '')}`;
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + '/node_modules/'.length).split('/');
    const name = rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
    return `pkg ${name}`;
  }
  if (url.startsWith('node:')) {
    const path = url.slice(5).replace(/^internal\//, '');
    const first = path.split('/')[0];
    return `node ${first}`;
  }
  if (url.includes('/bench/')) return 'bench instrumentation';
  return url;
}

export function summarizeProfile(path: string, top = 20): ProfileSummary {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const byId = new Map<number, ProfileNode>();
  const parent = new Map<number, number>();
  for (const node of profile.nodes) {
    byId.set(node.id, node);
    for (const child of node.children ?? []) parent.set(child, node.id);
  }
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const functions = new Map<string, number>();
  const owners = new Map<string, number>();
  const ownerCache = new Map<number, string | null>();
  /** The nearest package or Idem folder on the stack from `id` up, or null when there is none. */
  const ownerOf = (id: number): string | null => {
    const cached = ownerCache.get(id);
    if (cached !== undefined) return cached;
    const node = byId.get(id)!;
    const area = areaOf(node.callFrame.url, node.callFrame.functionName);
    const up = parent.get(id);
    const owner = /^(pkg |idem |bench)/.test(area) ? area : up === undefined ? null : ownerOf(up);
    ownerCache.set(id, owner);
    return owner;
  };
  let totalUs = 0;
  const stackAreas = new Map<number, Set<string>>();
  const areasOnStack = (id: number): Set<string> => {
    let cached = stackAreas.get(id);
    if (cached) return cached;
    const node = byId.get(id)!;
    const up = parent.get(id);
    cached = new Set(up === undefined ? [] : areasOnStack(up));
    cached.add(areaOf(node.callFrame.url, node.callFrame.functionName));
    stackAreas.set(id, cached);
    return cached;
  };
  for (let i = 0; i < profile.samples.length; i++) {
    const us = profile.timeDeltas[i + 1] ?? 0;
    const node = byId.get(profile.samples[i]);
    if (!node) continue;
    totalUs += us;
    const area = areaOf(node.callFrame.url, node.callFrame.functionName);
    self.set(area, (self.get(area) ?? 0) + us);
    const owner = ['GC', 'idle', 'V8/native (program)'].includes(area) ? area : (ownerOf(node.id) ?? area);
    owners.set(owner, (owners.get(owner) ?? 0) + us);
    for (const onStack of areasOnStack(node.id)) inclusive.set(onStack, (inclusive.get(onStack) ?? 0) + us);
    const fn = `${node.callFrame.functionName || '(anonymous)'} ${shortUrl(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`;
    functions.set(fn, (functions.get(fn) ?? 0) + us);
  }
  const sorted = (map: Map<string, number>, limit = Number.POSITIVE_INFINITY) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, limit)
      .map(([name, us]) => [name, us / 1000] as [string, number]);
  return {
    totalMs: totalUs / 1000,
    self: sorted(self),
    inclusive: sorted(inclusive),
    owner: sorted(owners),
    topFunctions: sorted(functions, top),
  };
}

function shortUrl(url: string): string {
  if (!url) return '';
  const own = /\/dist\/((src|modules|projections)\/.*)$/.exec(url);
  if (own) return own[1];
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) return url.slice(modules + '/node_modules/'.length);
  return url.replace(/^file:\/\//, '').replace(/^.*\/bench\//, 'bench/');
}
