// Serves the built scanner UI (electron-vite's out/renderer) at `/`, from the same origin as the API.
// Paths under /api/ never reach the files: they keep their JSON 404/405 answers. A missing file falls
// through to the error middleware's JSON 404, so no file-system detail ever leaks into a response.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { send } from '@koa/send';
import type { Middleware } from 'koa';
import { API_BASE } from '../../shared/index.ts';

/** Where `npm run build` puts the UI, relative to this file in the source tree. */
export const BUILT_UI_DIR = path.resolve(import.meta.dirname, '../../out/renderer');

/** Vite names bundled assets by content hash, so they can be cached for good. */
const ASSETS_PREFIX = '/assets/';
const YEAR_MS = 365 * 24 * 60 * 60 * 1000;

/** True when `dir` holds a built UI (its index.html). */
export function hasBuiltUi(dir: string): boolean {
  return existsSync(path.join(dir, 'index.html'));
}

export function staticUi(uiDir: string): Middleware {
  const root = path.resolve(uiDir);
  return async (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || ctx.path === API_BASE || ctx.path.startsWith(`${API_BASE}/`)) {
      return next();
    }
    const immutable = ctx.path.startsWith(ASSETS_PREFIX);
    try {
      await send(ctx, ctx.path, {
        root,
        index: 'index.html',
        maxage: immutable ? YEAR_MS : 0,
        immutable,
        setHeaders: (res) => {
          // index.html must be revalidated so a rebuilt UI is picked up at once.
          if (!immutable) res.setHeader('Cache-Control', 'no-cache');
        },
      });
    } catch (error) {
      const status = (error as { status?: number }).status;
      if (status === 404) return next();
      throw error;
    }
    if (ctx.body == null) return next(); // hidden files and directories without an index
  };
}
