import { join } from 'node:path';
import { AdminAssets, publicDirectory } from './admin-assets';

describe('the admin screen files', () => {
  it('are found beside the source module, also from its compiled copy under dist/', () => {
    const root = join('/', 'srv', 'idem');
    const source = join(root, 'modules', 'support', 'admin-screen');
    expect(publicDirectory(source)).toBe(join(source, 'public'));
    expect(publicDirectory(join(root, 'dist', 'modules', 'support', 'admin-screen'))).toBe(join(source, 'public'));
  });

  it('are all there in this checkout', () => {
    const assets = new AdminAssets();
    for (const name of ['admin.html', 'admin.js', 'admin.css'] as const) expect(assets.get(name).body.length).toBeGreaterThan(0);
  });

  it('when missing, answer 503 naming the file instead of stopping the api', () => {
    expect(() => new AdminAssets('/nowhere').get('admin.html')).toThrow(
      expect.objectContaining({
        kind: 'unavailable',
        code: 'ADMIN.SCREEN_MISSING',
        message: expect.stringContaining('/nowhere/admin.html'),
      }),
    );
  });
});
