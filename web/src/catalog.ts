import { useEffect, useState } from 'preact/hooks';
import { ok, type ApiClient, type Mesa, type Mozo, type Producto } from './api';

/** What the floor and the history pick from: the tables, the menu on sale, the waiters. */
export interface Catalog {
  mesas: Mesa[];
  productos: Producto[];
  mozos: Mozo[];
}

const EMPTY: Catalog = { mesas: [], productos: [], mozos: [] };

/** Reads the three lists once (GET /mesas, /productos?activo=true, /mozos). */
export async function loadCatalog(api: ApiClient): Promise<Catalog> {
  const [mesas, productos, mozos] = await Promise.all([
    ok(api.GET('/api/v1/mesas')),
    ok(api.GET('/api/v1/productos', { params: { query: { activo: true, limit: 500 } } })),
    ok(api.GET('/api/v1/mozos')),
  ]);
  return { mesas, productos, mozos };
}

/** The catalogue of a screen, read when it opens; `error` when it could not be. */
export function useCatalog(api: ApiClient): { catalog: Catalog; error: unknown; reload(): void } {
  const [catalog, setCatalog] = useState<Catalog>(EMPTY);
  const [error, setError] = useState<unknown>(null);
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    loadCatalog(api).then(
      (loaded) => {
        if (!current) return;
        setCatalog(loaded);
        setError(null);
      },
      (failure: unknown) => {
        if (current) setError(failure);
      },
    );
    return () => {
      current = false;
    };
  }, [api, round]);
  return { catalog, error, reload: () => setRound((n) => n + 1) };
}
